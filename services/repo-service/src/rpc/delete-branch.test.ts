import { Subjects } from "@quarry/bus";
import { httpErrorFromGrpc, status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectedPushPayload,
  gitIn,
  gitOk,
  makeCommit,
  newProject,
  outboxPayloads,
  pushContext,
  repositoryWith,
  setUp,
  type TestContext,
} from "../../test/support.ts";
import type { RepoDeps } from "../deps.ts";
import { deleteBranch } from "./delete-branch.ts";
import { protectBranch } from "./protect-branch.ts";
import { unprotectBranch } from "./unprotect-branch.ts";
import { NULL_SHA } from "../git/git.ts";

let t: TestContext;
let remove: ReturnType<typeof deleteBranch>;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;

beforeAll(async () => {
  t = await setUp("repo_delete_branch");
  remove = deleteBranch(t.deps);
  repo = await repositoryWith(t);
  base = makeCommit(repo.dir, { message: "Base\n" });
  for (const name of ["main", "develop", "feature/a", "release/1.0/hotfix", "releases", "stable", "keep"]) {
    gitIn(repo.dir, "update-ref", `refs/heads/${name}`, base);
  }
});
afterAll(() => t?.close());

const request = (name: string, o: { protectedPatterns?: string[]; defaultBranch?: string; diskPath?: string } = {}) => ({
  diskPath: o.diskPath ?? repo.diskPath,
  name,
  context: pushContext(repo.projectId, { defaultBranch: o.defaultBranch ?? "main" }),
  protectedPatterns: o.protectedPatterns ?? [],
});
const exists = (name: string) => gitOk(repo.dir, "rev-parse", "--verify", `refs/heads/${name}`);
const eventsFor = async (ref: string) => (await outboxPayloads(t, repo.projectId)).filter((e) => e.payload.ref === ref);

describe("DeleteBranch", () => {
  it("deletes the branch and records a push event with after = null sha and no checkout sha", async () => {
    expect(await remove(request("feature/a", { protectedPatterns: ["release/*"] }))).toEqual({});
    expect(exists("feature/a")).toBe(false);
    expect(await eventsFor("refs/heads/feature/a")).toEqual([
      { subject: Subjects.push, payload: expectedPushPayload("refs/heads/feature/a", base, NULL_SHA, repo.projectId) },
    ]);
    expect((await eventsFor("refs/heads/feature/a"))[0]?.payload.checkout_sha).toBeNull();
  });

  it("answers 404 for a missing branch", async () => {
    for (const name of ["missing", "feature/a", "feature", "main~1", "rel*"]) {
      await expect(remove(request(name))).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Branch Not Found" } });
    }
  });

  it("refuses the default branch with 405, the context's and HEAD's alike", async () => {
    const err = await remove(request("main")).catch((e: unknown) => e);
    expect(httpErrorFromGrpc(err)).toEqual({ status: 405, body: { message: "The default branch of a project cannot be deleted." } });
    expect(err).toMatchObject({ code: status.FAILED_PRECONDITION });
    await expect(remove(request("develop", { defaultBranch: "develop" }))).rejects.toMatchObject({ httpStatus: 405 });
    // HEAD still points at main even if the context says otherwise.
    await expect(remove(request("main", { defaultBranch: "develop" }))).rejects.toMatchObject({
      body: { message: "The default branch of a project cannot be deleted." },
    });
    expect(exists("main") && exists("develop")).toBe(true);
  });

  it("refuses protected branches with 405: exact names and * wildcards across slashes", async () => {
    for (const [name, pattern] of [
      ["stable", "stable"],
      ["release/1.0/hotfix", "release/*"],
      ["release/1.0/hotfix", "*hot*"],
      ["releases", "rel*s"],
    ] as const) {
      const err = await remove(request(name, { protectedPatterns: ["other", pattern] })).catch((e: unknown) => e);
      expect(httpErrorFromGrpc(err)).toEqual({ status: 405, body: { message: "Protected branch cant be removed" } });
      expect(exists(name)).toBe(true);
    }
    // Patterns match whole names, and literally apart from "*".
    await remove(request("releases", { protectedPatterns: ["release", "release/*", "r.leases", "stable*x"] }));
    expect(exists("releases")).toBe(false);
    expect(await eventsFor("refs/heads/stable")).toEqual([]);
  });

  it("refuses branches protected by the project's own rules", async () => {
    await protectBranch(t.deps)({ projectId: repo.projectId, name: "kee*", allowForcePush: false, codeOwnerApprovalRequired: false });
    const err = await remove(request("keep")).catch((e: unknown) => e);
    expect(httpErrorFromGrpc(err)).toEqual({ status: 405, body: { message: "Protected branch cant be removed" } });
    expect(exists("keep")).toBe(true);
    await unprotectBranch(t.deps)({ projectId: repo.projectId, name: "kee*" });
  });

  it("puts the branch back when the event cannot be recorded", async () => {
    const failing: RepoDeps = {
      ...t.deps,
      prisma: new Proxy(t.deps.prisma, {
        get: (target, key) =>
          key === "$transaction"
            ? (fn: (tx: unknown) => Promise<unknown>, opts: object) =>
                target.$transaction(async (tx) => {
                  await fn(tx);
                  throw new Error("commit failed");
                }, opts)
            : Reflect.get(target, key),
      }),
    };
    await expect(deleteBranch(failing)(request("keep"))).rejects.toThrow("commit failed");
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/keep")).toBe(base);
    expect(await eventsFor("refs/heads/keep")).toEqual([]);
  });

  it("needs a name, the context and the repository", async () => {
    await expect(remove(request(""))).rejects.toMatchObject({ body: { error: "branch is missing" } });
    await expect(remove({ ...request("keep"), context: null })).rejects.toMatchObject({ body: { error: "context is missing" } });
    await expect(remove(request("keep", { diskPath: newProject().diskPath }))).rejects.toMatchObject({
      body: { message: "404 Repository Not Found" },
    });
    expect(exists("keep")).toBe(true);
  });
});
