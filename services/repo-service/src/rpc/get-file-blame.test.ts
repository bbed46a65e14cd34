import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gitIn, makeTreeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { readCommit, type Commit } from "../git/commits.ts";
import { getFileBlame, porcelainGroups } from "./get-file-blame.ts";
import { git } from "../git/git.ts";

// Counts git processes, to show that repeated reads start none.
vi.mock("../git/git.ts", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../git/git.ts")>();
  return { ...mod, git: vi.fn(mod.git) };
});

let t: TestContext;
let blame: ReturnType<typeof getFileBlame>;
let repo: { diskPath: string; dir: string };
let first: Commit;
let second: Commit;

beforeAll(async () => {
  t = await setUp("repo_file_blame");
  blame = getFileBlame(t.deps);
  repo = await repositoryWith(t);
  const a = makeTreeCommit(repo.dir, { "f.txt": "one\ntwo\nthree\n", "empty.txt": "" }, { message: "First\n\nBody.\n" });
  const b = makeTreeCommit(repo.dir, { "f.txt": "one\nTWO\nthree\n\tfour\n", "empty.txt": "" }, { message: "Second\n", parents: [a] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", b);
  [first, second] = await Promise.all([readCommit(repo.dir, a), readCommit(repo.dir, b)]);
});
afterAll(() => t?.close());

const request = (o: { filePath?: string; ref?: string; rangeStart?: number; rangeEnd?: number } = {}) =>
  blame({ diskPath: repo.diskPath, filePath: "f.txt", ref: "main", rangeStart: 0, rangeEnd: 0, ...o });

describe("GetFileBlame", () => {
  it("groups consecutive lines of one commit, with full commits and the file's metadata", async () => {
    const res = await request();
    expect(res.ranges).toEqual([
      { commit: first, lines: ["one"] },
      { commit: second, lines: ["TWO"] },
      { commit: first, lines: ["three"] },
      { commit: second, lines: ["\tfour"] },
    ]);
    expect(res.file).toMatchObject({ fileName: "f.txt", commitId: second.id, lastCommitId: second.id, ref: "main", content: Buffer.alloc(0) });
    expect((await request({ ref: first.id })).ranges).toEqual([{ commit: first, lines: ["one", "two", "three"] }]);
    expect((await request({ filePath: "empty.txt" })).ranges).toEqual([]);
  });

  it("blames a range of lines; an end past the last line means up to it", async () => {
    expect((await request({ rangeStart: 2, rangeEnd: 3 })).ranges).toEqual([
      { commit: second, lines: ["TWO"] },
      { commit: first, lines: ["three"] },
    ]);
    expect((await request({ rangeStart: 4, rangeEnd: 100 })).ranges).toEqual([{ commit: second, lines: ["\tfour"] }]);
  });

  it("refuses bad ranges like GitLab", async () => {
    await expect(request({ rangeStart: 3, rangeEnd: 2 })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { message: "range[start] must be less than or equal to range[end]" },
    });
    await expect(request({ rangeStart: 2 })).rejects.toMatchObject({ body: { error: "range[end] is missing" } });
    await expect(request({ rangeEnd: 2 })).rejects.toMatchObject({ body: { error: "range[start] is missing" } });
    await expect(request({ rangeStart: -1, rangeEnd: 2 })).rejects.toMatchObject({ body: { error: "range[start] does not have a valid value" } });
    await expect(request({ rangeStart: 5, rangeEnd: 6 })).rejects.toMatchObject({ body: { message: "range is outside of the file length" } });
  });

  it("answers 404 for missing files and refs, 400 for invalid paths", async () => {
    await expect(request({ filePath: "nope" })).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 File Not Found" } });
    await expect(request({ ref: "nope" })).rejects.toMatchObject({ body: { message: "404 Commit Not Found" } });
    await expect(request({ filePath: "../f.txt" })).rejects.toMatchObject({ body: { error: "file_path should be a valid file path" } });
  });
});

describe("porcelainGroups", () => {
  it("takes the sha from each line's header and the content after the tab", () => {
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    const out = [`${a} 1 1 2`, "author A", "summary x", "filename f", "\tone", `${a} 2 2`, "\tsummary", `${b} 1 3 1`, "author B", "filename f", "\t", ""].join(
      "\n",
    );
    expect(porcelainGroups(out)).toEqual([
      { sha: a, lines: ["one", "summary"] },
      { sha: b, lines: [""] },
    ]);
  });

  it("keeps a blame by commit, path and range: blaming again starts no git process", async () => {
    const first = await request({ rangeStart: 1, rangeEnd: 2 });
    vi.mocked(git).mockClear();
    expect(await request({ rangeStart: 1, rangeEnd: 2 })).toEqual(first);
    expect(vi.mocked(git)).not.toHaveBeenCalled();
    expect((await request({ rangeStart: 2, rangeEnd: 3 })).ranges).not.toEqual(first.ranges);
  });
});
