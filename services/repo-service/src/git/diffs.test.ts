import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, makeTree, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { COMPARE_DIFF_LIMITS, emptyTree, readDiffs } from "./diffs.ts";

let t: TestContext;
let dir: string;
let before: string;
let after: string;

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i}\n`).join("");

beforeAll(async () => {
  t = await setUp("repo_compare_diffs");
  dir = (await repositoryWith(t)).dir;
  const sub = makeCommit(dir, { message: "sub\n" });
  before = makeCommit(dir, {
    tree: makeTree(dir, {
      "a.txt": "one\ntwo\n",
      "gone.txt": "bye\n",
      "moved.txt": lines(20, "moved"),
      "mode.sh": "echo\n",
      "bin.dat": "\x00\x01\x02",
      "type.txt": "was a file\n",
      "big.txt": "small\n",
    }),
  });
  after = makeCommit(dir, {
    parents: [before],
    tree: makeTree(dir, {
      "a.txt": "one\n2\n",
      "new.txt": "fresh\n",
      "dir/renamed.txt": lines(20, "moved") + "extra\n",
      "mode.sh": { content: "echo\n", mode: "100755" },
      "bin.dat": "\x00\x01\x03",
      "type.txt": { content: "a.txt", mode: "120000" },
      "big.txt": lines(200, "big"),
      sub: { submodule: sub },
    }),
  });
});
afterAll(() => t?.close());

const byPath = <T extends { newPath: string }>(diffs: T[]) => Object.fromEntries(diffs.map((d) => [d.newPath, d]));

describe("readDiffs", () => {
  it("lists added, deleted, modified, renamed, mode-changed, binary, type-changed files and submodules", async () => {
    const r = await readDiffs(dir, before, after);
    expect(r).toMatchObject({ overflow: false, timedOut: false });
    const d = byPath(r.diffs);
    expect(r.diffs.map((x) => x.newPath).sort()).toEqual([
      "a.txt",
      "big.txt",
      "bin.dat",
      "dir/renamed.txt",
      "gone.txt",
      "mode.sh",
      "new.txt",
      "sub",
      "type.txt",
    ]);
    expect(d["a.txt"]).toEqual({
      oldPath: "a.txt",
      newPath: "a.txt",
      aMode: "100644",
      bMode: "100644",
      diff: "@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
      newFile: false,
      renamedFile: false,
      deletedFile: false,
      collapsed: false,
      tooLarge: false,
    });
    expect(d["new.txt"]).toMatchObject({ oldPath: "new.txt", aMode: "0", bMode: "100644", newFile: true, diff: "@@ -0,0 +1 @@\n+fresh\n" });
    expect(d["gone.txt"]).toMatchObject({ aMode: "100644", bMode: "0", deletedFile: true, diff: "@@ -1 +0,0 @@\n-bye\n" });
    expect(d["dir/renamed.txt"]).toMatchObject({ oldPath: "moved.txt", renamedFile: true, diff: expect.stringMatching(/^@@ .*\n\+extra\n$/s) });
    expect(d["mode.sh"]).toMatchObject({ aMode: "100644", bMode: "100755", diff: "" });
    expect(d["bin.dat"]).toMatchObject({ diff: "Binary files a/bin.dat and b/bin.dat differ\n" });
    expect(d["type.txt"]).toMatchObject({
      aMode: "100644",
      bMode: "120000",
      diff: "@@ -1 +0,0 @@\n-was a file\n@@ -0,0 +1 @@\n+a.txt\n\\ No newline at end of file\n",
    });
    expect(d.sub).toMatchObject({ aMode: "0", bMode: "160000", newFile: true, diff: expect.stringContaining("+Subproject commit ") });
    expect(d["big.txt"]!.diff.split("\n")).toHaveLength(203);
  });

  it("collapses the files after the file limit and reports the overflow", async () => {
    const r = await readDiffs(dir, before, after, { limits: { ...COMPARE_DIFF_LIMITS, maxFiles: 2 } });
    expect(r.overflow).toBe(true);
    expect(r.diffs).toHaveLength(9);
    expect(r.diffs.slice(0, 2).every((d) => !d.collapsed && d.diff !== "")).toBe(true);
    expect(r.diffs.slice(2).every((d) => d.collapsed && d.diff === "" && !d.tooLarge)).toBe(true);
  });

  it("collapses from the file that reaches the line or byte limit", async () => {
    // Sorted by path: a.txt (3 lines) comes first, big.txt (201 lines) second.
    const byLines = await readDiffs(dir, before, after, { limits: { ...COMPARE_DIFF_LIMITS, maxLines: 100 } });
    expect(byLines.overflow).toBe(true);
    expect(byLines.diffs.map((d) => [d.newPath, d.collapsed])).toEqual([
      ["a.txt", false],
      ["big.txt", true],
      ["bin.dat", true],
      ["dir/renamed.txt", true],
      ["gone.txt", true],
      ["mode.sh", true],
      ["new.txt", true],
      ["sub", true],
      ["type.txt", true],
    ]);
    const byBytes = await readDiffs(dir, before, after, { limits: { ...COMPARE_DIFF_LIMITS, maxBytes: 10 } });
    expect(byBytes.overflow).toBe(true);
    expect(byBytes.diffs.every((d) => d.collapsed && d.diff === "")).toBe(true);
  });

  it("marks a single patch over maxPatchBytes too large without stopping the others", async () => {
    const r = await readDiffs(dir, before, after, { limits: { ...COMPARE_DIFF_LIMITS, maxPatchBytes: 1000 } });
    expect(r.overflow).toBe(false);
    const d = byPath(r.diffs);
    expect(d["big.txt"]).toMatchObject({ tooLarge: true, collapsed: false, diff: "" });
    expect(d["new.txt"]!.diff).toBe("@@ -0,0 +1 @@\n+fresh\n");
  });

  it("gives up when the timeout passes", async () => {
    const r = await readDiffs(dir, before, after, { timeoutMs: 0 });
    expect(r.timedOut).toBe(true);
    expect(r.diffs.every((d) => d.collapsed && d.diff === "")).toBe(true);
  });

  it("diffs from the empty tree", async () => {
    const r = await readDiffs(dir, "4b825dc642cb6eb9a060e54bf8d69288fbee4904", before);
    expect(r.diffs.every((d) => d.newFile)).toBe(true);
    expect(r.diffs).toHaveLength(7);
    expect(gitIn(dir, "cat-file", "-t", before)).toBe("commit");
  });
});

// A history made with a work tree (renames, type changes, odd paths), as users push it.
let wtSandbox: string;
let wtWork: string;
let wtGitDir: string;
const wtCommits: Record<string, string> = {};

function wtRun(...args: string[]): string {
  return execFileSync("git", args, {
    cwd: wtWork,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@example.com" },
  }).trim();
}

function wtCommit(name: string, change: () => void): void {
  change();
  wtRun("add", "-A");
  wtRun("commit", "--quiet", "--allow-empty", "-m", name);
  wtCommits[name] = wtRun("rev-parse", "HEAD");
}

const wtFile = (p: string, content: string | Buffer) => {
  mkdirSync(path.dirname(path.join(wtWork, p)), { recursive: true });
  writeFileSync(path.join(wtWork, p), content);
};

beforeAll(() => {
  wtSandbox = mkdtempSync(path.join(os.tmpdir(), "quarry-diffs-"));
  wtWork = path.join(wtSandbox, "w");
  execFileSync("git", ["init", "--quiet", wtWork]);
  wtGitDir = path.join(wtWork, ".git");
  wtCommit("root", () => {
    wtFile("README.md", "# Title\n");
    wtFile("src/a.txt", "one\ntwo\nthree\nfour\nfive\nsix\n");
    wtFile("gone.txt", "bye\n");
    wtFile("tool.sh", "echo hi\n");
    wtFile("kind", "a file\n");
  });
  wtCommit("changes", () => {
    wtFile("README.md", "# Title\n\nMore.\n");
    execFileSync("git", ["mv", "src/a.txt", "src/b.txt"], { cwd: wtWork });
    wtFile("src/b.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\n");
    unlinkSync(path.join(wtWork, "gone.txt"));
    chmodSync(path.join(wtWork, "tool.sh"), 0o755);
    wtFile("with space/ünï.txt", "x");
    wtFile("bin.dat", Buffer.from([0, 1, 2, 3]));
    wtFile("empty.txt", "");
    unlinkSync(path.join(wtWork, "kind"));
    symlinkSync("README.md", path.join(wtWork, "kind"));
  });
});
afterAll(() => rmSync(wtSandbox, { recursive: true, force: true }));

describe("readDiffs on a wtWork-tree history", () => {
  it("shows a root commit against the empty tree, every file new", async () => {
    const { diffs, overflow } = await readDiffs(wtGitDir, emptyTree(wtCommits.root!), wtCommits.root!);
    expect(overflow).toBe(false);
    expect(diffs.map((d) => d.newPath)).toEqual(["README.md", "gone.txt", "kind", "src/a.txt", "tool.sh"]);
    expect(diffs[0]).toEqual({
      diff: "@@ -0,0 +1 @@\n+# Title\n",
      newPath: "README.md",
      oldPath: "README.md",
      aMode: "0",
      bMode: "100644",
      newFile: true,
      renamedFile: false,
      deletedFile: false,
      tooLarge: false,
      collapsed: false,
    });
  });

  it("shows modifications, renames with changes, deletions, mode and type changes, binary and odd paths", async () => {
    const { diffs } = await readDiffs(wtGitDir, wtCommits.root!, wtCommits.changes!);
    const byPath = Object.fromEntries(diffs.map((d) => [d.newPath, d]));
    expect(Object.keys(byPath).sort()).toEqual(["README.md", "bin.dat", "empty.txt", "gone.txt", "kind", "src/b.txt", "tool.sh", "with space/ünï.txt"]);
    expect(byPath["README.md"]).toMatchObject({
      diff: "@@ -1 +1,3 @@\n # Title\n+\n+More.\n",
      aMode: "100644",
      bMode: "100644",
      newFile: false,
      deletedFile: false,
      renamedFile: false,
    });
    expect(byPath["src/b.txt"]).toMatchObject({
      oldPath: "src/a.txt",
      renamedFile: true,
      newFile: false,
      diff: "@@ -4,3 +4,4 @@ three\n four\n five\n six\n+seven\n",
    });
    expect(byPath["gone.txt"]).toMatchObject({ deletedFile: true, aMode: "100644", bMode: "0", diff: "@@ -1 +0,0 @@\n-bye\n" });
    expect(byPath["tool.sh"]).toMatchObject({ aMode: "100644", bMode: "100755", diff: "" });
    expect(byPath["with space/ünï.txt"]).toMatchObject({ newFile: true, diff: "@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n" });
    expect(byPath["bin.dat"]).toMatchObject({ newFile: true, diff: "Binary files /dev/null and b/bin.dat differ\n" });
    expect(byPath["empty.txt"]).toMatchObject({ newFile: true, diff: "", bMode: "100644" });
    // file → symlink: one entry carrying both halves of git's patch
    expect(byPath.kind).toMatchObject({
      aMode: "100644",
      bMode: "120000",
      diff: "@@ -1 +0,0 @@\n-a file\n@@ -0,0 +1 @@\n+README.md\n\\ No newline at end of file\n",
    });
  });
});
