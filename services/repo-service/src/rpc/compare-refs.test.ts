import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { readCommit } from "../git/commits.ts";
import { compareRefs } from "./compare-refs.ts";
import { git } from "../git/git.ts";

// Counts git processes, to show that repeated reads start none.
vi.mock("../git/git.ts", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../git/git.ts")>();
  return { ...mod, git: vi.fn(mod.git) };
});

let t: TestContext;
let compare: ReturnType<typeof compareRefs>;
let repo: { diskPath: string; dir: string };
let fork: { diskPath: string; dir: string };
let base: string;
let main: string;
let f1: string;
let f2: string;
let forkOnly: string;

beforeAll(async () => {
  t = await setUp("repo_compare_refs");
  compare = compareRefs(t.deps);
  repo = await repositoryWith(t);
  fork = await repositoryWith(t);
  base = makeCommit(repo.dir, { message: "Base\n", files: { "a.txt": "a\n", "b.txt": "b\n" } });
  main = makeCommit(repo.dir, { message: "Main moves on\n", parents: [base], files: { "a.txt": "a main\n", "b.txt": "b\n" } });
  f1 = makeCommit(repo.dir, { message: "Feature 1\n", parents: [base], files: { "a.txt": "a\n", "b.txt": "b feature\n" } });
  f2 = makeCommit(repo.dir, { message: "Feature 2\n", parents: [f1], files: { "a.txt": "a\n", "b.txt": "b feature\n", "c.txt": "c\n" } });
  gitIn(repo.dir, "update-ref", "refs/heads/main", main);
  gitIn(repo.dir, "update-ref", "refs/heads/feature", f2);
  gitIn(repo.dir, "update-ref", "refs/heads/orphan", makeCommit(repo.dir, { message: "Orphan\n", files: { "o.txt": "o\n" } }));
  // The fork holds only its own history: base plus a commit the project does not have.
  gitIn(fork.dir, "fetch", "-q", repo.dir, "refs/heads/main:refs/heads/main");
  forkOnly = makeCommit(fork.dir, { message: "Fork only\n", parents: [main], files: { "a.txt": "a fork\n", "b.txt": "b\n" } });
  gitIn(fork.dir, "update-ref", "refs/heads/fork-branch", forkOnly);
});
afterAll(() => t?.close());

const req = (o: Partial<Parameters<typeof compare>[0]>) => ({ diskPath: repo.diskPath, from: "main", to: "feature", straight: false, fromDiskPath: "", ...o });

describe("CompareRefs", () => {
  it("compares from the merge base by default: commits oldest first, diffs of the feature only", async () => {
    const r = await compare(req({}));
    expect(r.commits).toEqual([await readCommit(repo.dir, f1), await readCommit(repo.dir, f2)]);
    expect(r.diffs.map((d) => d.newPath)).toEqual(["b.txt", "c.txt"]);
    expect(r).toMatchObject({ overflow: false, timedOut: false, sameRef: false, baseSha: base, headSha: f2 });
  });

  it("compares straight: the diff from `from` itself", async () => {
    const r = await compare(req({ straight: true }));
    expect(r.commits.map((c) => c.id)).toEqual([f1, f2]);
    expect(r.diffs.map((d) => d.newPath)).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(r.baseSha).toBe(main);
  });

  it("answers an empty comparison for a commit and its ancestor, and flags the same ref", async () => {
    const back = await compare(req({ from: f2, to: f1 }));
    expect(back).toMatchObject({ commits: [], diffs: [], sameRef: false });
    const same = await compare(req({ from: "feature", to: f2 }));
    expect(same).toEqual({ commits: [], diffs: [], overflow: false, timedOut: false, sameRef: true, baseSha: f2, headSha: f2 });
  });

  it("diffs unrelated histories from the empty tree", async () => {
    const r = await compare(req({ from: "main", to: "orphan" }));
    expect(r.diffs).toMatchObject([{ newPath: "o.txt", newFile: true }]);
    expect(r.baseSha).toBe(main);
  });

  it("resolves `from` in another repository and reads its objects without copying them", async () => {
    const r = await compare(req({ fromDiskPath: fork.diskPath, from: "fork-branch", to: "feature", straight: true }));
    expect(r.commits.map((c) => c.id)).toEqual([f1, f2]);
    expect(r.diffs.map((d) => d.newPath)).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(r.diffs[0]!.diff).toBe("@@ -1 +1 @@\n-a fork\n+a\n");
    expect(r.baseSha).toBe(forkOnly);
    // Nothing of the fork was written into the project's repository.
    expect(() => gitIn(repo.dir, "cat-file", "-e", forkOnly)).toThrow();
    // `from` is looked up in the fork only.
    await expect(compare(req({ fromDiskPath: fork.diskPath, from: "feature" }))).rejects.toMatchObject({ body: { message: "404 Ref Not Found" } });
  });

  it.each([[{ from: "nope" }], [{ to: "nope" }], [{ from: "-x" }]])("answers 404 Ref Not Found for %j", async (o) => {
    await expect(compare(req(o))).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Ref Not Found" } });
  });

  it("keeps a compare by its two commit ids: comparing again starts no git process", async () => {
    const first = await compare(req({}));
    expect(first.diffs.length).toBeGreaterThan(0);
    vi.mocked(git).mockClear();
    expect(await compare(req({}))).toEqual(first);
    expect(vi.mocked(git)).not.toHaveBeenCalled();
    // straight is another answer, kept apart.
    expect(first.baseSha).toBe(base);
    expect((await compare(req({ straight: true }))).baseSha).toBe(main);
  });
});
