// The read cache of protected-branch rules (BranchProtection.cached): served from memory, read
// again after every write of the rules through repo-service.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { protectBranch } from "../rpc/protect-branch.ts";
import { unprotectBranch } from "../rpc/unprotect-branch.ts";
import { updateProtectedBranch } from "../rpc/update-protected-branch.ts";
import { BranchProtection, protectionChanged } from "./protection.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_protection_cache");
});
afterAll(() => t?.close());

const base = { allowForcePush: false, codeOwnerApprovalRequired: false };

describe("BranchProtection.cached", () => {
  it("serves a project's rules from memory until they change", async () => {
    expect((await BranchProtection.cached(t.deps, 41)).isProtected("main")).toBe(false);
    // A row written behind the service's back is not read again …
    await t.deps.prisma.protectedBranch.create({ data: { projectId: 41, name: "main" } });
    expect((await BranchProtection.cached(t.deps, 41)).isProtected("main")).toBe(false);
    // … until a change is reported; load() always reads the table.
    expect((await BranchProtection.load(t.deps, 41)).isProtected("main")).toBe(true);
    protectionChanged(41);
    expect((await BranchProtection.cached(t.deps, 41)).isProtected("main")).toBe(true);
  });

  it("reads the rules again after ProtectBranch, UpdateProtectedBranch and UnprotectBranch", async () => {
    expect((await BranchProtection.cached(t.deps, 42)).isProtected("release/1")).toBe(false);
    await protectBranch(t.deps)({ projectId: 42, name: "release/*", pushAccessLevel: 40, ...base });
    const protectedNow = await BranchProtection.cached(t.deps, 42);
    expect(protectedNow.isProtected("release/1")).toBe(true);
    expect(protectedNow.developersCan("push", "release/1")).toBe(false);
    await updateProtectedBranch(t.deps)({ projectId: 42, name: "release/*", pushAccessLevel: 30 });
    expect((await BranchProtection.cached(t.deps, 42)).developersCan("push", "release/1")).toBe(true);
    await unprotectBranch(t.deps)({ projectId: 42, name: "release/*" });
    expect((await BranchProtection.cached(t.deps, 42)).isProtected("release/1")).toBe(false);
  });

  it("keeps other projects' rules apart", async () => {
    await protectBranch(t.deps)({ projectId: 43, name: "only-43", ...base });
    expect((await BranchProtection.cached(t.deps, 43)).isProtected("only-43")).toBe(true);
    expect((await BranchProtection.cached(t.deps, 44)).isProtected("only-43")).toBe(false);
    expect((await BranchProtection.cached(t.deps, 0)).rules).toEqual([]);
  });
});
