import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, newProject, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { readCommit } from "./commits.ts";
import { findBranch } from "./find-branch.ts";

let t: TestContext;
let find: ReturnType<typeof findBranch>;
let repo: { diskPath: string; dir: string };
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
    expect(await find({ diskPath: repo.diskPath, name: "feature/x", defaultBranch: "main" })).toEqual({
      name: "feature/x",
      commit: await readCommit(repo.dir, base),
      merged: true,
      default: false,
    });
    expect(await find({ diskPath: repo.diskPath, name: "main", defaultBranch: "main" })).toMatchObject({ merged: false, default: true });
    // Same commit as the default branch: not "merged" (GitLab).
    expect(await find({ diskPath: repo.diskPath, name: "copy", defaultBranch: "main" })).toMatchObject({ merged: false, default: false });
    // No default branch given: HEAD's.
    expect(await find({ diskPath: repo.diskPath, name: "main", defaultBranch: "" })).toMatchObject({ default: true });
  });

  it.each([["missing"], ["feature"], ["feature/"], ["feat"], ["main~1"], ["main^{tree}"], ["v1"], ["refs/heads/main"], ["HEAD"], ["*"], [""]])(
    "answers 404 Branch Not Found for %j",
    async (name) => {
      await expect(find({ diskPath: repo.diskPath, name, defaultBranch: "main" })).rejects.toMatchObject({
        code: status.NOT_FOUND,
        body: { message: "404 Branch Not Found" },
      });
    },
  );

  it("answers 404 for a missing repository", async () => {
    await expect(find({ diskPath: newProject().diskPath, name: "main", defaultBranch: "main" })).rejects.toMatchObject({
      body: { message: "404 Repository Not Found" },
    });
  });
});
