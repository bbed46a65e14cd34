import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { findProtectedBranch } from "./find-protected-branch.ts";
import { listProtectedBranches } from "./list-protected-branches.ts";
import { protectBranch } from "./protect-branch.ts";
import { unprotectBranch } from "./unprotect-branch.ts";
import { updateProtectedBranch } from "./update-protected-branch.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_protect");
});
afterAll(() => t?.close());

const base = { allowForcePush: false, codeOwnerApprovalRequired: false };

describe("ProtectBranch", () => {
  it("creates a rule with Maintainer defaults and GitLab's access level rows", async () => {
    const rule = await protectBranch(t.deps)({ projectId: 7, name: "main", ...base });
    expect(rule).toMatchObject({
      name: "main",
      allowForcePush: false,
      pushAccessLevels: [{ accessLevel: 40, id: expect.any(Number) }],
      mergeAccessLevels: [{ accessLevel: 40 }],
      unprotectAccessLevels: [{ accessLevel: 40 }],
    });
    const wildcard = await protectBranch(t.deps)({ projectId: 7, name: "release/*", pushAccessLevel: 0, mergeAccessLevel: 30, ...base, allowForcePush: true });
    expect(wildcard).toMatchObject({ pushAccessLevels: [{ accessLevel: 0 }], mergeAccessLevels: [{ accessLevel: 30 }], allowForcePush: true });
  });

  it("refuses a second rule of the same name with 409, and bad levels or names with 400", async () => {
    await expect(protectBranch(t.deps)({ projectId: 7, name: "main", ...base })).rejects.toMatchObject({
      code: status.ALREADY_EXISTS,
      body: { message: "Protected branch 'main' already exists" },
    });
    await expect(protectBranch(t.deps)({ projectId: 7, name: "x", pushAccessLevel: 35, ...base })).rejects.toMatchObject({
      body: { error: "push_access_level does not have a valid value" },
    });
    await expect(protectBranch(t.deps)({ projectId: 7, name: "", ...base })).rejects.toMatchObject({ body: { error: "name is missing" } });
    // The same name in another project is another rule.
    expect(await protectBranch(t.deps)({ projectId: 8, name: "main", ...base })).toMatchObject({ name: "main" });
    // Nothing half-written by the refusals.
    expect(await t.deps.prisma.protectedBranch.count({ where: { projectId: 7 } })).toBe(2);
  });
});

describe("ListProtectedBranches / FindProtectedBranch", () => {
  it("lists by name with search and paging, and finds by exact name", async () => {
    const list = listProtectedBranches(t.deps);
    expect((await list({ projectId: 7, search: "", page: 0, perPage: 0 })).protectedBranches.map((r) => r.name)).toEqual(["main", "release/*"]);
    expect(await list({ projectId: 7, search: "REL", page: 0, perPage: 0 })).toMatchObject({ total: 1, protectedBranches: [{ name: "release/*" }] });
    expect(await list({ projectId: 7, search: "", page: 2, perPage: 1 })).toMatchObject({ total: 2, protectedBranches: [{ name: "release/*" }] });
    expect(await findProtectedBranch(t.deps)({ projectId: 7, name: "release/*" })).toMatchObject({ name: "release/*" });
    await expect(findProtectedBranch(t.deps)({ projectId: 7, name: "release/1" })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      body: { message: "404 Not found" },
    });
  });
});

describe("UpdateProtectedBranch / UnprotectBranch", () => {
  it("changes only the given fields and replaces a kind's level", async () => {
    const updated = await updateProtectedBranch(t.deps)({ projectId: 7, name: "main", allowForcePush: true, pushAccessLevel: 30 });
    expect(updated).toMatchObject({ allowForcePush: true, pushAccessLevels: [{ accessLevel: 30 }], mergeAccessLevels: [{ accessLevel: 40 }] });
    expect(await t.deps.prisma.protectedBranchAccessLevel.count({ where: { protectedBranchId: Number(updated.id), kind: "push" } })).toBe(1);
    await expect(updateProtectedBranch(t.deps)({ projectId: 7, name: "main", mergeAccessLevel: 1 })).rejects.toMatchObject({
      body: { error: "merge_access_level does not have a valid value" },
    });
    expect(await findProtectedBranch(t.deps)({ projectId: 7, name: "main" })).toMatchObject({ mergeAccessLevels: [{ accessLevel: 40 }] });
  });

  it("removes a rule with its levels; a missing one is 404", async () => {
    await unprotectBranch(t.deps)({ projectId: 7, name: "main" });
    await expect(findProtectedBranch(t.deps)({ projectId: 7, name: "main" })).rejects.toMatchObject({ code: status.NOT_FOUND });
    await expect(unprotectBranch(t.deps)({ projectId: 7, name: "main" })).rejects.toMatchObject({ body: { message: "404 Not found" } });
    expect(await findProtectedBranch(t.deps)({ projectId: 8, name: "main" })).toMatchObject({ name: "main" });
  });
});
