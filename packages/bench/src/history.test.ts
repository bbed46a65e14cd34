import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIG_FILE, DEFAULT_SHAPE, ensureHistory, type History, historyHash, SMALL_FILE, writeHistory } from "./history.ts";

const run = promisify(execFile);
const git = async (gitDir: string, ...args: string[]) => (await run("git", ["--git-dir", gitDir, ...args], { maxBuffer: 64 << 20 })).stdout.trim();

let root: string;
let history: History;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-bench-history-test-"));
  history = await ensureHistory(DEFAULT_SHAPE, root);
}, 120_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the bench history", () => {
  it("has a stable cache key and reuses the cached repository", async () => {
    expect(historyHash()).toBe(historyHash(DEFAULT_SHAPE));
    expect(historyHash({ ...DEFAULT_SHAPE, commits: 10 })).not.toBe(historyHash());
    expect(history.hash).toBe(historyHash());
    expect(history.gitDir).toBe(path.join(root, `quarry-bench-history-${history.hash}`, "repo.git"));
    const again = await ensureHistory(DEFAULT_SHAPE, root);
    expect(again.gitDir).toBe(history.gitDir);
    // Only the cache entry: no scratch directory left behind.
    expect(fs.readdirSync(root)).toEqual([`quarry-bench-history-${history.hash}`]);
  });

  it("is the same repository, object for object, every time it is generated", async () => {
    const second = path.join(root, "second.git");
    await writeHistory(second, DEFAULT_SHAPE);
    const refs = (gitDir: string) => git(gitDir, "for-each-ref", "--format=%(objectname) %(refname)");
    expect(await refs(second)).toBe(await refs(history.gitDir));
    fs.rmSync(second, { recursive: true, force: true });
  }, 120_000);

  it("has at least 3,000 commits, 100 annotated tags and the branches the bench writes to", async () => {
    expect(Number(await git(history.gitDir, "rev-list", "--count", "main"))).toBeGreaterThanOrEqual(3000);
    const tags = (await git(history.gitDir, "for-each-ref", "--format=%(objecttype) %(refname:short)", "refs/tags")).split("\n");
    expect(tags.length).toBeGreaterThanOrEqual(100);
    expect(tags.every((t) => t.startsWith("tag "))).toBe(true);
    expect(tags.map((t) => t.slice(4)).sort()).toEqual([...history.tags].sort());
    const branches = (await git(history.gitDir, "for-each-ref", "--format=%(refname:short)", "refs/heads")).split("\n");
    expect(branches.sort()).toEqual([...history.branches].sort());
    expect(await git(history.gitDir, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
  });

  it("has a 40 KB file changed by hundreds of commits, and a few hundred files in directories", async () => {
    expect(Number(await git(history.gitDir, "cat-file", "-s", `main:${BIG_FILE}`))).toBeGreaterThanOrEqual(40_000);
    const changes = (await git(history.gitDir, "rev-list", "main", "--", BIG_FILE)).split("\n");
    expect(changes.length).toBeGreaterThanOrEqual(300);
    const files = (await git(history.gitDir, "ls-tree", "-r", "--name-only", "main")).split("\n");
    expect(files.length).toBeGreaterThanOrEqual(300);
    expect(files).toContain(SMALL_FILE);
    expect(new Set(files.map((f) => path.dirname(f))).size).toBeGreaterThanOrEqual(10);
  });
});
