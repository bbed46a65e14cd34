import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { readCommit } from "../git/commits.ts";
import { findCommit } from "./find-commit.ts";
import { git } from "../git/git.ts";

// Counts git processes, to show that repeated reads start none.
vi.mock("../git/git.ts", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../git/git.ts")>();
  return { ...mod, git: vi.fn(mod.git) };
});

let t: TestContext;
let find: ReturnType<typeof findCommit>;
let repo: { diskPath: string; dir: string };
let root: string;
let tip: string;

beforeAll(async () => {
  t = await setUp("repo_find_commit");
  find = findCommit(t.deps);
  repo = await repositoryWith(t);
  root = makeCommit(repo.dir, { message: "Root\n", files: { "a.txt": "1\n2\n3\n" } });
  tip = makeCommit(repo.dir, {
    message: "Tip\n\nCo-authored-by: Bob <bob@example.com>\n",
    parents: [root],
    files: { "a.txt": "1\ntwo\n3\n4\n", "b.txt": "b\n" },
    committer: { name: "Grace", email: "grace@example.com", date: "2026-11-22T08:15:30-05:00" },
  });
  gitIn(repo.dir, "update-ref", "refs/heads/feature/x", tip);
  gitIn(repo.dir, "tag", "-a", "-m", "release", "v1.0", root);
});
afterAll(() => t?.close());

const request = (revision: string, stats = true) => find({ diskPath: repo.diskPath, revision, stats });

describe("FindCommit", () => {
  it("reads a commit by sha, short sha, branch (with slashes) or annotated tag, with trailers", async () => {
    const expected = await readCommit(repo.dir, tip);
    expect((await request(tip)).commit).toEqual(expected);
    expect((await request(tip.slice(0, 8))).commit?.id).toBe(tip);
    expect((await request("feature/x")).commit).toMatchObject({
      id: tip,
      trailers: { "Co-authored-by": "Bob <bob@example.com>" },
      committedDate: "2026-11-22T08:15:30-05:00",
    });
    expect((await request("v1.0")).commit?.id).toBe(root);
  });

  it("adds stats against the first parent (the empty tree for a root commit) only when asked", async () => {
    // a.txt: 2 → two, + 4; b.txt added.
    expect((await request(tip)).stats).toEqual({ additions: 3, deletions: 1, total: 4 });
    expect((await request(root)).stats).toEqual({ additions: 3, deletions: 0, total: 3 });
    expect((await request(tip, false)).stats).toBeNull();
  });

  it("answers 404 Commit Not Found for unknown or unusable revisions, 404 Repository Not Found without a repository", async () => {
    for (const rev of ["nope", "-h", `${tip}..${root}`, "feature/x:a.txt", ""]) {
      await expect(request(rev)).rejects.toMatchObject({ body: { message: "404 Commit Not Found" } });
    }
    await expect(find({ diskPath: "@hashed/00/00/none.git", revision: "main", stats: true })).rejects.toMatchObject({
      body: { message: "404 Repository Not Found" },
    });
  });

  it("keeps a commit's stats by its id: reading it again starts no git process", async () => {
    const first = await request(tip);
    vi.mocked(git).mockClear();
    expect(await request(tip)).toEqual(first);
    expect(vi.mocked(git)).not.toHaveBeenCalled();
  });
});
