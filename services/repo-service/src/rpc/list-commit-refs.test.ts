import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { listCommitRefs } from "./list-commit-refs.ts";

let t: TestContext;
let list: ReturnType<typeof listCommitRefs>;
let repo: { diskPath: string; dir: string };
let root: string;
let tip: string;
let other: string;

beforeAll(async () => {
  t = await setUp("repo_list_commit_refs");
  list = listCommitRefs(t.deps);
  repo = await repositoryWith(t);
  root = makeCommit(repo.dir, { message: "Root\n" });
  tip = makeCommit(repo.dir, { message: "Tip\n", parents: [root] });
  other = makeCommit(repo.dir, { message: "Other\n", parents: [root] });
  for (const [ref, sha] of [
    ["refs/heads/main", tip],
    ["refs/heads/feature/a", tip],
    ["refs/heads/b", root],
    ["refs/heads/other", other],
  ] as const) {
    gitIn(repo.dir, "update-ref", ref, sha);
  }
  gitIn(repo.dir, "tag", "v1", root);
  gitIn(repo.dir, "tag", "-a", "-m", "annotated", "v2", tip);
});
afterAll(() => t?.close());

const request = (revision: string, type = "", page = 0, perPage = 0) => list({ diskPath: repo.diskPath, revision, type, page, perPage });

describe("ListCommitRefs", () => {
  it("lists branches then tags whose history contains the commit, by name", async () => {
    expect(await request(root)).toEqual({
      refs: [
        { type: "branch", name: "b" },
        { type: "branch", name: "feature/a" },
        { type: "branch", name: "main" },
        { type: "branch", name: "other" },
        { type: "tag", name: "v1" },
        { type: "tag", name: "v2" },
      ],
      hasMore: false,
    });
    expect((await request("main")).refs).toEqual([
      { type: "branch", name: "feature/a" },
      { type: "branch", name: "main" },
      { type: "tag", name: "v2" },
    ]);
  });

  it("filters by type", async () => {
    expect((await request(tip, "branch")).refs.map((r) => r.name)).toEqual(["feature/a", "main"]);
    expect((await request(root, "tag")).refs).toEqual([
      { type: "tag", name: "v1" },
      { type: "tag", name: "v2" },
    ]);
  });

  it("pages, telling whether more follow", async () => {
    expect(await request(root, "all", 2, 2)).toEqual({
      refs: [
        { type: "branch", name: "main" },
        { type: "branch", name: "other" },
      ],
      hasMore: true,
    });
    expect(await request(root, "all", 3, 2)).toEqual({
      refs: [
        { type: "tag", name: "v1" },
        { type: "tag", name: "v2" },
      ],
      hasMore: false,
    });
  });

  it("answers 404 Commit Not Found for an unknown commit", async () => {
    await expect(request("0".repeat(40))).rejects.toMatchObject({ body: { message: "404 Commit Not Found" } });
  });
});
