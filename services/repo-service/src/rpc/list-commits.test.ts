import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ListCommitsRequest__Output } from "@quarry/proto/types/repo/v1/ListCommitsRequest";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { git } from "../git/git.ts";
import { listCommits } from "./list-commits.ts";

// Counts git processes, to show that the plain listing spawns none.
vi.mock("../git/git.ts", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../git/git.ts")>();
  return { ...mod, git: vi.fn(mod.git) };
});

let t: TestContext;
let list: ReturnType<typeof listCommits>;
let repo: { diskPath: string; dir: string };
let long: { diskPath: string; dir: string };
const c = {} as Record<"r" | "a" | "b" | "m" | "c" | "x", string>;

const ADA = { name: "Ada Lovelace", email: "ada@example.com" };
const BOB = { name: "Bob Builder", email: "bob@builders.example" };
const at = (who: { name: string; email: string }, time: string) => ({ ...who, date: `2026-11-21T${time}+00:00` });

beforeAll(async () => {
  t = await setUp("repo_list_commits");
  list = listCommits(t.deps);
  repo = await repositoryWith(t);
  // r ← a (Bob, a.md) ─┐
  //  ↖ b (same time as a) ──┴ m ← c (trailer)        other: r ← x (only on "other")
  c.r = makeCommit(repo.dir, { message: "Root\n", files: { "README.md": "hi\n" }, author: at(ADA, "10:00:00") });
  c.a = makeCommit(repo.dir, { message: "Docs\n", parents: [c.r], files: { "README.md": "hi\n", "a.md": "one\ntwo\n" }, author: at(BOB, "11:00:00") });
  c.b = makeCommit(repo.dir, { message: "Side\n", parents: [c.r], files: { "README.md": "hi\nthere\n" }, author: at(ADA, "11:00:00") });
  c.m = makeCommit(repo.dir, {
    message: "Merge\n",
    parents: [c.a, c.b],
    files: { "README.md": "hi\nthere\n", "a.md": "one\ntwo\n" },
    author: at(ADA, "12:00:00"),
  });
  c.c = makeCommit(repo.dir, {
    message: "Last\n\nSigned-off-by: Ada <ada@example.com>\n",
    parents: [c.m],
    files: { "README.md": "hello\nthere\nfriend\n", "a.md": "one\ntwo\n" },
    author: at(ADA, "13:00:00"),
  });
  c.x = makeCommit(repo.dir, { message: "Other\n", parents: [c.r], author: at(ADA, "09:00:00") });
  gitIn(repo.dir, "update-ref", "refs/heads/main", c.c);
  gitIn(repo.dir, "update-ref", "refs/heads/side", c.b);
  gitIn(repo.dir, "update-ref", "refs/heads/other", c.x);
  gitIn(repo.dir, "tag", "-a", "-m", "tag", "v1", c.a);

  // 1100 commits in one fast-import run, for pages beyond the cat-file walk.
  long = await repositoryWith(t);
  const script = Array.from(
    { length: 1100 },
    (_, i) => `commit refs/heads/main\ncommitter A <a@example.com> ${1700000000 + i} +0000\ndata <<EOM\nC${i}\nEOM\n`,
  ).join("");
  execFileSync("git", ["--git-dir", long.dir, "fast-import", "--quiet"], { input: script });
});
afterAll(() => t?.close());
beforeEach(() => {
  vi.mocked(git).mockClear();
});

const request = (o: Partial<ListCommitsRequest__Output> = {}, r = repo) =>
  list({
    diskPath: r.diskPath,
    refName: "",
    defaultBranch: "main",
    all: false,
    author: "",
    firstParent: false,
    topoOrder: false,
    path: "",
    since: "",
    until: "",
    trailers: false,
    withStats: false,
    page: 0,
    perPage: 0,
    ...o,
  });
const ids = async (o: Partial<ListCommitsRequest__Output> = {}, r = repo) => (await request(o, r)).commits.map((x) => x.commit!.id);
const log = (...args: string[]) =>
  gitIn(repo.dir, "log", "--format=%H", ...args)
    .split("\n")
    .filter(Boolean);

describe("ListCommits", () => {
  it("lists the default branch in git log order, reading objects without spawning git", async () => {
    expect(await ids()).toEqual(log("main"));
    expect(await ids()).toEqual([c.c, c.m, c.a, c.b, c.r]);
    expect(vi.mocked(git)).not.toHaveBeenCalled();
  });

  it("pages with one commit of look-ahead", async () => {
    expect(await request({ perPage: 2 })).toMatchObject({ hasMore: true, commits: [{ commit: { id: c.c } }, { commit: { id: c.m } }] });
    expect(await request({ perPage: 2, page: 3 })).toMatchObject({ hasMore: false, commits: [{ commit: { id: c.r } }] });
    expect(await request({ perPage: 5 })).toMatchObject({ hasMore: false, commits: { length: 5 } });
    expect(await request({ perPage: 2, page: 9 })).toEqual({ commits: [], hasMore: false });
  });

  it("leaves trailers empty unless asked for", async () => {
    const [plain] = (await request()).commits;
    expect(plain!.commit).toMatchObject({ trailers: {}, extendedTrailers: {}, title: "Last" });
    const [withTrailers] = (await request({ trailers: true })).commits;
    expect(withTrailers!.commit).toMatchObject({
      trailers: { "Signed-off-by": "Ada <ada@example.com>" },
      extendedTrailers: { "Signed-off-by": { values: ["Ada <ada@example.com>"] } },
    });
    const [logged] = (await request({ trailers: true, path: "README.md" })).commits;
    expect(logged!.commit?.trailers).toEqual({ "Signed-off-by": "Ada <ada@example.com>" });
    expect((await request({ path: "README.md" })).commits[0]!.commit?.trailers).toEqual({});
  });

  it("takes branches, annotated tags, shas, HEAD and ranges as ref_name", async () => {
    expect(await ids({ refName: "side" })).toEqual([c.b, c.r]);
    expect(await ids({ refName: "v1" })).toEqual([c.a, c.r]);
    expect(await ids({ refName: c.m.slice(0, 10) })).toEqual(log(c.m));
    expect(await ids({ refName: "HEAD" })).toEqual(log("main"));
    expect(await ids({ refName: "side..main" })).toEqual(log("side..main"));
    expect(await ids({ refName: "other...side" })).toEqual([c.b, c.x]);
    expect(await ids({ refName: "4b825dc642cb6eb9a060e54bf8d69288fbee4904..side" })).toEqual([c.b, c.r]);
  });

  it("answers an empty list for unknown revisions and an empty repository", async () => {
    expect(await request({ refName: "nope" })).toEqual({ commits: [], hasMore: false });
    expect(await request({ refName: "nope..main" })).toEqual({ commits: [], hasMore: false });
    expect(await request({ refName: "main:README.md" })).toEqual({ commits: [], hasMore: false });
    const empty = await repositoryWith(t);
    expect(await request({}, empty)).toEqual({ commits: [], hasMore: false });
    expect(await request({ path: "x" }, empty)).toEqual({ commits: [], hasMore: false });
    expect(await request({ all: true }, empty)).toEqual({ commits: [], hasMore: false });
  });

  it("lists every ref's commits with all, ignoring ref_name", async () => {
    expect(await ids({ all: true, refName: "side" })).toEqual(log("--all"));
    expect(await ids({ all: true })).toContain(c.x);
  });

  it("filters by author name or e-mail, follows first parents, orders topologically and by path", async () => {
    expect(await ids({ author: "Bob" })).toEqual([c.a]);
    expect(await ids({ author: "builders.example" })).toEqual([c.a]);
    expect(await ids({ author: "nobody" })).toEqual([]);
    expect(await ids({ firstParent: true })).toEqual([c.c, c.m, c.a, c.r]);
    expect(await ids({ topoOrder: true })).toEqual(log("--topo-order", "main"));
    expect(await ids({ path: "a.md" })).toEqual([c.a]);
    expect(await ids({ path: "*.md" })).toEqual([]); // literal, not a glob
  });

  it("bounds by committer date, both ends inclusive", async () => {
    expect(await ids({ since: "2026-11-21T11:00:00Z" })).toEqual([c.c, c.m, c.a, c.b]);
    expect(await ids({ until: "2026-11-21T11:00:00Z" })).toEqual([c.a, c.b, c.r]);
    expect(await ids({ since: "2026-11-21T12:00:00+01:00", until: "2026-11-21T11:30:00Z" })).toEqual([c.a, c.b]);
  });

  it("adds stats against the first parent when asked", async () => {
    const { commits } = await request({ withStats: true });
    const stats = Object.fromEntries(commits.map((x) => [x.commit!.id, x.stats]));
    // README.md "hi\nthere\n" → "hello\nthere\nfriend\n": 2 added, 1 removed.
    expect(stats[c.c]).toEqual({ additions: 2, deletions: 1, total: 3 });
    // The merge against its first parent (a): README.md gains "there".
    expect(stats[c.m]).toEqual({ additions: 1, deletions: 0, total: 1 });
    expect(stats[c.a]).toEqual({ additions: 2, deletions: 0, total: 2 });
    expect(stats[c.r]).toEqual({ additions: 1, deletions: 0, total: 1 });
    expect((await request()).commits[0]!.stats).toBeNull();
  });

  it("reads deep pages with git log --skip", async () => {
    const page = await request({ page: 55, perPage: 20 }, long);
    const expected = gitIn(long.dir, "log", "--format=%H", "--skip=1080", "--max-count=20", "main").split("\n");
    expect(page.commits.map((x) => x.commit!.id)).toEqual(expected);
    expect(page.hasMore).toBe(false);
    expect(page.commits[0]!.commit).toMatchObject({ title: "C19", trailers: {} });
    expect(vi.mocked(git).mock.calls.some(([args]) => args[0] === "log")).toBe(true);
    expect((await request({ page: 54, perPage: 20 }, long)).hasMore).toBe(true);
  });

  it("refuses option-like or blank-containing refs, invalid dates and missing repositories", async () => {
    await expect(request({ refName: "-main" })).rejects.toMatchObject({ body: { message: "ref_name is invalid" } });
    await expect(request({ refName: "main branch" })).rejects.toMatchObject({ body: { message: "ref_name is invalid" } });
    await expect(request({ since: "invalid-date" })).rejects.toMatchObject({ body: { error: "since is invalid" } });
    await expect(request({ until: "soon" })).rejects.toMatchObject({ body: { error: "until is invalid" } });
    await expect(request({}, { diskPath: "@hashed/00/00/missing.git", dir: "" })).rejects.toMatchObject({ body: { message: "404 Repository Not Found" } });
  });
});
