import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gitIn, makeCommit, newProject, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { readCommit } from "../git/commits.ts";
import { protectBranch } from "./protect-branch.ts";
import { findBranch } from "./find-branch.ts";
import { git } from "../git/git.ts";

// Counts git processes, to show that repeated reads start none.
vi.mock("../git/git.ts", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../git/git.ts")>();
  return { ...mod, git: vi.fn(mod.git) };
});

let t: TestContext;
let find: ReturnType<typeof findBranch>;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;
let tip: string;

beforeAll(async () => {
  t = await setUp("repo_find_branch");
  find = findBranch(t.deps);
  repo = await repositoryWith(t);
  base = makeCommit(repo.dir, { message: "Base\n" });
  tip = makeCommit(repo.dir, { message: "Tip\n", parents: [base] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", tip);
  gitIn(repo.dir, "update-ref", "refs/heads/feature/x", base);
  gitIn(repo.dir, "update-ref", "refs/heads/copy", tip);
  gitIn(repo.dir, "tag", "v1", base);
});
afterAll(() => t?.close());

describe("FindBranch", () => {
  it("returns the branch with its head commit, merged and default", async () => {
    expect(await find({ projectId: repo.projectId, accessLevel: 30, diskPath: repo.diskPath, name: "feature/x", defaultBranch: "main" })).toEqual({
      name: "feature/x",
      commit: await readCommit(repo.dir, base),
      merged: true,
      default: false,
      protected: false,
      developersCanPush: false,
      developersCanMerge: false,
      canPush: true,
      canMerge: true,
    });
    expect(await find({ projectId: repo.projectId, accessLevel: 30, diskPath: repo.diskPath, name: "main", defaultBranch: "main" })).toMatchObject({
      merged: false,
      default: true,
    });
    // Same commit as the default branch: not "merged" (GitLab).
    expect(await find({ projectId: repo.projectId, accessLevel: 30, diskPath: repo.diskPath, name: "copy", defaultBranch: "main" })).toMatchObject({
      merged: false,
      default: false,
    });
    // No default branch given: HEAD's.
    expect(await find({ projectId: repo.projectId, accessLevel: 30, diskPath: repo.diskPath, name: "main", defaultBranch: "" })).toMatchObject({
      default: true,
    });
  });

  it.each([["missing"], ["feature"], ["feature/"], ["feat"], ["main~1"], ["main^{tree}"], ["v1"], ["refs/heads/main"], ["HEAD"], ["*"], [""]])(
    "answers 404 Branch Not Found for %j",
    async (name) => {
      await expect(find({ projectId: repo.projectId, accessLevel: 30, diskPath: repo.diskPath, name, defaultBranch: "main" })).rejects.toMatchObject({
        code: status.NOT_FOUND,
        body: { message: "404 Branch Not Found" },
      });
    },
  );

  it("computes protected, developers_can_* and can_push from the project's rules and the caller's level", async () => {
    const protect = protectBranch(t.deps);
    await protect({
      projectId: repo.projectId,
      name: "feature/*",
      pushAccessLevel: 30,
      mergeAccessLevel: 40,
      allowForcePush: false,
      codeOwnerApprovalRequired: false,
    });
    await protect({ projectId: repo.projectId, name: "main", allowForcePush: false, codeOwnerApprovalRequired: false });
    const as = (name: string, accessLevel: number) => find({ projectId: repo.projectId, accessLevel, diskPath: repo.diskPath, name, defaultBranch: "main" });
    expect(await as("feature/x", 30)).toMatchObject({ protected: true, developersCanPush: true, developersCanMerge: false, canPush: true });
    expect(await as("main", 30)).toMatchObject({ protected: true, developersCanPush: false, developersCanMerge: false, canPush: false });
    expect(await as("main", 40)).toMatchObject({ protected: true, canPush: true });
    expect(await as("copy", 20)).toMatchObject({ protected: false, canPush: false }); // Reporters never push
    expect(await as("main", 30)).toMatchObject({ canMerge: false });
    expect(await as("main", 40)).toMatchObject({ canMerge: true });
    expect(await as("copy", 20)).toMatchObject({ canMerge: false });
    // can_merge: pushing or a merge rule (Maintainers push "copy", Developers merge into it).
    await protect({
      projectId: repo.projectId,
      name: "copy",
      pushAccessLevel: 40,
      mergeAccessLevel: 30,
      allowForcePush: false,
      codeOwnerApprovalRequired: false,
    });
    expect(await as("copy", 30)).toMatchObject({ canPush: false, canMerge: true });
    // Another project's rules do not apply.
    expect(await find({ projectId: repo.projectId + 1000, accessLevel: 30, diskPath: repo.diskPath, name: "main", defaultBranch: "main" })).toMatchObject({
      protected: false,
      canPush: true,
    });
  });

  it("answers 404 for a missing repository", async () => {
    await expect(find({ projectId: 1, accessLevel: 30, diskPath: newProject().diskPath, name: "main", defaultBranch: "main" })).rejects.toMatchObject({
      body: { message: "404 Repository Not Found" },
    });
  });

  it("reads a branch again from memory: no git process, the same answer", async () => {
    const req = { projectId: repo.projectId, accessLevel: 30, diskPath: repo.diskPath, name: "feature/x", defaultBranch: "main" };
    const first = await find(req);
    vi.mocked(git).mockClear();
    expect(await find(req)).toEqual(first);
    expect(vi.mocked(git)).not.toHaveBeenCalled();
  });
});
