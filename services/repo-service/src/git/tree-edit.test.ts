import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { gitIn, makeTreeCommit } from "../../test/support.ts";
import { CatFilePool } from "./cat-file.ts";
import { ObjectBatch } from "./loose-objects.ts";
import { EMPTY_TREE, TreeEdit, type TreeEntry } from "./tree-edit.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "quarry-tree-edit-"));
const catFile = new CatFilePool();
afterAll(() => {
  catFile.close();
  rmSync(scratch, { recursive: true, force: true });
});

let dir: string;
let base: string;
let n = 0;
beforeEach(() => {
  dir = path.join(scratch, `r${n++}.git`);
  execFileSync("git", ["init", "--quiet", "--bare", dir]);
  base = makeTreeCommit(dir, {
    "README.md": "# Hello\n",
    "src/app.ts": "app\n",
    "src/lib/util.ts": "util\n",
    "docs/guide/intro.md": "intro\n",
    "docs/guide/more.md": "more\n",
    "vendor/big/a.txt": "a\n",
  });
});

const blob = (content: string) => execFileSync("git", ["--git-dir", dir, "hash-object", "-w", "--stdin"], { input: content }).toString().trim();

/** The same change made the way git does it: a temporary index (read-tree, update-index, write-tree). */
function gitIndexTree(commit: string, changes: [string, TreeEntry | null][]): string {
  const env = { ...process.env, GIT_INDEX_FILE: path.join(scratch, `index-${n}`) };
  const run = (args: string[], input = "") =>
    execFileSync("git", ["--git-dir", dir, ...args], { env, input })
      .toString()
      .trim();
  run(["read-tree", commit]);
  run(["update-index", "-z", "--index-info"], changes.map(([p, e]) => (e ? `${e.mode} ${e.oid}\t${p}\0` : `0 ${"0".repeat(40)}\t${p}\0`)).join(""));
  const tree = run(["write-tree"]);
  rmSync(env.GIT_INDEX_FILE, { force: true });
  return tree;
}

async function edited(commit: string, changes: [string, TreeEntry | null][]): Promise<{ edit: TreeEdit; tree: string }> {
  const edit = await TreeEdit.load(
    catFile,
    dir,
    commit,
    changes.map(([p]) => p),
  );
  for (const [p, e] of changes) {
    if (e) edit.set(p, e);
    else edit.remove(p);
  }
  const batch = await ObjectBatch.for(dir);
  const tree = edit.write(batch);
  await batch.write(dir);
  return { edit, tree };
}

const subtree = (tree: string, p: string) => gitIn(dir, "rev-parse", `${tree}:${p}`);

describe("TreeEdit", () => {
  it("builds the tree git's index would, rewriting only the directories on the changed paths", async () => {
    const changes: [string, TreeEntry | null][] = [
      ["src/lib/util.ts", { mode: "100755", oid: blob("new util\n") }],
      ["src/lib/deep/er/new.ts", { mode: "100644", oid: blob("new\n") }],
      ["README.md", null],
      ["LICENSE", { mode: "120000", oid: blob("README.md") }],
    ];
    const { tree } = await edited(base, changes);
    expect(tree).toBe(gitIndexTree(base, changes));
    // Untouched directories keep their ids; only src/ and src/lib/ (and the root) are new.
    expect(subtree(tree, "docs")).toBe(subtree(base, "docs"));
    expect(subtree(tree, "vendor")).toBe(subtree(base, "vendor"));
    expect(subtree(tree, "src")).not.toBe(subtree(base, "src"));
    expect(gitIn(dir, "fsck", "--strict", "--no-dangling", "--no-progress")).toBe("");
  });

  it("drops directories left empty, up to the root, as git stores no empty directories", async () => {
    const changes: [string, TreeEntry | null][] = [
      ["vendor/big/a.txt", null],
      ["docs/guide/intro.md", null],
    ];
    const { tree, edit } = await edited(base, changes);
    expect(tree).toBe(gitIndexTree(base, changes));
    expect(gitIn(dir, "ls-tree", "--name-only", tree)).toBe("README.md\ndocs\nsrc");
    expect(edit.isDirectory("vendor")).toBe(false);
    expect(edit.isDirectory("docs/guide")).toBe(true);
    const all: [string, TreeEntry | null][] = [
      ["README.md", null],
      ["src/app.ts", null],
      ["src/lib/util.ts", null],
      ["docs/guide/intro.md", null],
      ["docs/guide/more.md", null],
      ["vendor/big/a.txt", null],
    ];
    expect((await edited(base, all)).tree).toBe(EMPTY_TREE);
  });

  it("answers which paths are files and which directories, and what changed in git's order", async () => {
    const edit = await TreeEdit.load(catFile, dir, base, ["src/lib/util.ts", "README.md/x", "docs/guide", "z/new.txt"]);
    expect(edit.get("src/lib/util.ts")).toMatchObject({ mode: "100644" });
    expect(edit.get("src/lib")).toBeUndefined();
    expect(edit.isDirectory("src/lib")).toBe(true);
    expect(edit.get("README.md/x")).toBeUndefined();
    expect(edit.isDirectory("docs/guide")).toBe(true);
    const util = edit.get("src/lib/util.ts")!;
    edit.set("z/new.txt", { mode: "100644", oid: blob("z\n") });
    edit.remove("README.md");
    edit.set("src/lib/util.ts", { mode: "100755", oid: util.oid });
    edit.set("docs/guide", { mode: "100644", oid: blob("x") }); // not a file before: added
    expect(edit.diff().map(({ path: p, before, after }) => [p, before?.mode ?? null, after?.mode ?? null])).toEqual([
      ["README.md", "100644", null],
      ["docs/guide", null, "100644"],
      ["src/lib/util.ts", "100644", "100755"],
      ["z/new.txt", null, "100644"],
    ]);
  });

  it("keeps entries whose names are not UTF-8 as they are", async () => {
    const odd = Buffer.from([0xff, 0x66, 0x69, 0x6c, 0x65]); // "\xfffile"
    const blobId = blob("odd\n");
    const mktree = (entries: Buffer) => execFileSync("git", ["--git-dir", dir, "mktree", "-z"], { input: entries }).toString().trim();
    const inner = mktree(Buffer.concat([Buffer.from(`100644 blob ${blobId}\t`), odd, Buffer.from("\0")]));
    const root = mktree(Buffer.from(`040000 tree ${inner}\tdir\0`));
    const commit = execFileSync("git", ["--git-dir", dir, "commit-tree", root], {
      input: "odd\n",
      env: { ...process.env, GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@example.com" },
    })
      .toString()
      .trim();
    const { tree } = await edited(commit, [["dir/plain.txt", { mode: "100644", oid: blob("plain\n") }]]);
    const listed = execFileSync("git", ["--git-dir", dir, "ls-tree", "-z", "--name-only", `${tree}:dir`]);
    expect(listed.toString("latin1").split("\0").filter(Boolean)).toEqual(["plain.txt", odd.toString("latin1")]);
    expect(gitIn(dir, "rev-parse", `${tree}:dir/plain.txt`)).toBe(blob("plain\n"));
  });

  it("starts from the empty tree without a start commit", async () => {
    const { tree, edit } = await edited("", [["a/b.txt", { mode: "100644", oid: blob("b\n") }]]);
    expect(edit.baseTree).toBe(EMPTY_TREE);
    expect(gitIn(dir, "ls-tree", "-r", "--name-only", tree)).toBe("a/b.txt");
  });
});
