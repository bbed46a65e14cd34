import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DIFF_LIMITS, diffTrees, emptyTree, parseRawPatch } from "./diffs.ts";

let sandbox: string;
let work: string;
let gitDir: string;
const commits: Record<string, string> = {};

function run(...args: string[]): string {
  return execFileSync("git", args, {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@example.com" },
  }).trim();
}

function commit(name: string, change: () => void): void {
  change();
  run("add", "-A");
  run("commit", "--quiet", "--allow-empty", "-m", name);
  commits[name] = run("rev-parse", "HEAD");
}

const file = (p: string, content: string | Buffer) => {
  mkdirSync(path.dirname(path.join(work, p)), { recursive: true });
  writeFileSync(path.join(work, p), content);
};

beforeAll(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), "quarry-diffs-"));
  work = path.join(sandbox, "w");
  execFileSync("git", ["init", "--quiet", work]);
  gitDir = path.join(work, ".git");
  commit("root", () => {
    file("README.md", "# Title\n");
    file("src/a.txt", "one\ntwo\nthree\nfour\nfive\nsix\n");
    file("gone.txt", "bye\n");
    file("tool.sh", "echo hi\n");
    file("kind", "a file\n");
  });
  commit("changes", () => {
    file("README.md", "# Title\n\nMore.\n");
    execFileSync("git", ["mv", "src/a.txt", "src/b.txt"], { cwd: work });
    file("src/b.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\n");
    unlinkSync(path.join(work, "gone.txt"));
    chmodSync(path.join(work, "tool.sh"), 0o755);
    file("with space/ünï.txt", "x");
    file("bin.dat", Buffer.from([0, 1, 2, 3]));
    file("empty.txt", "");
    unlinkSync(path.join(work, "kind"));
    symlinkSync("README.md", path.join(work, "kind"));
  });
});
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe("diffTrees", () => {
  it("shows a root commit against the empty tree, every file new", async () => {
    const { diffs, overflow } = await diffTrees(gitDir, emptyTree(commits.root!), commits.root!);
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
    const { diffs } = await diffTrees(gitDir, commits.root!, commits.changes!);
    const byPath = Object.fromEntries(diffs.map((d) => [d.newPath, d]));
    expect(Object.keys(byPath).sort()).toEqual(["README.md", "bin.dat", "empty.txt", "gone.txt", "kind", "src/b.txt", "tool.sh", "with space/ünï.txt"]);
    expect(byPath["README.md"]).toMatchObject({ diff: "@@ -1 +1,3 @@\n # Title\n+\n+More.\n", aMode: "100644", bMode: "100644", newFile: false, deletedFile: false, renamedFile: false });
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
    expect(byPath["kind"]).toMatchObject({ aMode: "100644", bMode: "120000", diff: "@@ -1 +0,0 @@\n-a file\n@@ -0,0 +1 @@\n+README.md\n\\ No newline at end of file\n" });
  });
});

describe("parseRawPatch limits", () => {
  const raw = (n: number, body: string) => {
    const records = Array.from({ length: n }, (_, i) => `:100644 100644 ${"1".repeat(40)} ${"2".repeat(40)} M\0f${i}\0`).join("");
    const patches = Array.from({ length: n }, (_, i) => `diff --git a/f${i} b/f${i}\nindex 1..2 100644\n--- a/f${i}\n+++ b/f${i}\n${body}`).join("");
    return `${records}\0${patches}`;
  };

  it("drops a patch over the per-file limit and marks it too_large", () => {
    const big = `@@ -1 +1 @@\n-a\n+${"x".repeat(300)}\n`;
    const { diffs } = parseRawPatch(raw(2, big), { ...DEFAULT_DIFF_LIMITS, maxPatchBytes: 200 });
    expect(diffs.map((d) => [d.diff, d.tooLarge])).toEqual([["", true], ["", true]]);
  });

  it("stops at the file, line and byte limits", () => {
    const body = "@@ -1 +1 @@\n-a\n+b\n";
    expect(parseRawPatch(raw(5, body), { ...DEFAULT_DIFF_LIMITS, maxFiles: 3 })).toMatchObject({ overflow: true, diffs: { length: 3 } });
    // 3 lines per file: the third file reaches 9 ≥ 8 and is dropped.
    expect(parseRawPatch(raw(5, body), { ...DEFAULT_DIFF_LIMITS, maxLines: 8 })).toMatchObject({ overflow: true, diffs: { length: 2 } });
    expect(parseRawPatch(raw(5, body), { ...DEFAULT_DIFF_LIMITS, maxBytes: body.length * 4 })).toMatchObject({ overflow: true, diffs: { length: 3 } });
    expect(parseRawPatch(raw(5, body))).toMatchObject({ overflow: false, diffs: { length: 5 } });
  });

  it("reads nothing from an empty diff", () => {
    expect(parseRawPatch("")).toEqual({ diffs: [], overflow: false });
  });
});
