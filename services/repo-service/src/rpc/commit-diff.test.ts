import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { commitDiff } from "./commit-diff.ts";

let t: TestContext;
let diff: ReturnType<typeof commitDiff>;
let repo: { diskPath: string; dir: string };
let root: string;
let side: string;
let merge: string;

beforeAll(async () => {
  t = await setUp("repo_commit_diff");
  diff = commitDiff(t.deps);
  repo = await repositoryWith(t);
  root = makeCommit(repo.dir, { message: "Root\n", files: { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" } });
  side = makeCommit(repo.dir, { message: "Side\n", parents: [root], files: { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n", "side.txt": "s\n" } });
  merge = makeCommit(repo.dir, { message: "Merge\n", parents: [root, side], files: { "a.txt": "A\n", "b.txt": "b\n", "c.txt": "c\n", "side.txt": "s\n" } });
  gitIn(repo.dir, "update-ref", "refs/heads/main", merge);
});
afterAll(() => t?.close());

const request = (revision: string, page = 0, perPage = 0) => diff({ diskPath: repo.diskPath, revision, page, perPage });

describe("CommitDiff", () => {
  it("diffs a root commit against the empty tree", async () => {
    const { diffs, total } = await request(root);
    expect(total).toBe(3);
    expect(diffs.map((d) => [d.newPath, d.newFile, d.aMode, d.diff])).toEqual([
      ["a.txt", true, "0", "@@ -0,0 +1 @@\n+a\n"],
      ["b.txt", true, "0", "@@ -0,0 +1 @@\n+b\n"],
      ["c.txt", true, "0", "@@ -0,0 +1 @@\n+c\n"],
    ]);
  });

  it("diffs a merge against its first parent, by branch name", async () => {
    const { diffs } = await request("main");
    expect(diffs.map((d) => [d.newPath, d.diff])).toEqual([
      ["a.txt", "@@ -1 +1 @@\n-a\n+A\n"],
      ["side.txt", "@@ -0,0 +1 @@\n+s\n"],
    ]);
  });

  it("pages the files, keeping the total", async () => {
    expect(await request(root, 2, 2)).toMatchObject({ total: 3, diffs: [{ newPath: "c.txt" }] });
    expect(await request(root, 3, 2)).toEqual({ total: 3, diffs: [] });
  });

  it("answers 404 Commit Not Found for an unknown commit", async () => {
    await expect(request("nope")).rejects.toMatchObject({ body: { message: "404 Commit Not Found" } });
  });
});
