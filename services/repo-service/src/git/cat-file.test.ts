import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit } from "../../test/support.ts";
import { CatFilePool, CatFileProcess } from "./cat-file.ts";

let sandbox: string;
let dir: string;
let other: string;

function bareRepo(name: string): string {
  const d = path.join(sandbox, name);
  execFileSync("git", ["init", "--bare", "-q", "-b", "main", d]);
  return d;
}

beforeAll(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), "quarry-catfile-"));
  dir = bareRepo("a.git");
  other = bareRepo("b.git");
});
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe("CatFileProcess", () => {
  it("writes the commands of one event-loop turn to git in one write, and answers each in order", async () => {
    const sha = makeCommit(dir, { files: { "one.txt": "1\n", "two.txt": "2\n" } });
    const p = new CatFileProcess(dir);
    // The real pipe to git, counted: one system call for a burst instead of one per request.
    const stdin = (p as unknown as { child: { stdin: { write: (chunk: string) => boolean } } }).child.stdin;
    const writes: string[] = [];
    const write = stdin.write.bind(stdin);
    stdin.write = (chunk: string) => {
      writes.push(chunk);
      return write(chunk);
    };
    try {
      const reads = await Promise.all(Array.from({ length: 40 }, (_, i) => p.read(`${sha}:${i % 2 ? "two" : "one"}.txt`)));
      expect(reads.map((r) => r?.data.toString())).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 ? "2\n" : "1\n")));
      expect(writes).toHaveLength(1);
      expect(writes[0]!.split("\n").filter(Boolean)).toHaveLength(40);
      // A later turn writes again.
      expect((await p.read(`${sha}:one.txt`))?.data.toString()).toBe("1\n");
      expect(writes).toHaveLength(2);
    } finally {
      p.close();
    }
  });

  it("reads blobs, trees and commits by id and by <rev>:<path>, and answers null for missing ones", async () => {
    const sha = makeCommit(dir, { files: { "a b.txt": "hello\n", "bin.dat": "\x00\x01\n\n" } });
    gitIn(dir, "update-ref", "refs/heads/main", sha);
    const p = new CatFileProcess(dir);
    try {
      const [blob, bin, commit, missing, missingPath, tree] = await Promise.all([
        p.read("main:a b.txt"),
        p.read(`${sha}:bin.dat`),
        p.read(sha),
        p.read("0123456789012345678901234567890123456789"),
        p.read("main:nope"),
        p.info("main^{tree}"),
      ]);
      expect(blob?.type).toBe("blob");
      expect(blob?.data.toString()).toBe("hello\n");
      expect(bin?.data).toEqual(Buffer.from("\x00\x01\n\n", "latin1"));
      expect(commit?.type).toBe("commit");
      expect(commit?.data.toString()).toContain("A commit");
      expect(missing).toBeNull();
      expect(missingPath).toBeNull();
      expect(tree).toMatchObject({ type: "tree", oid: gitIn(dir, "rev-parse", "main^{tree}") });
      // A newline would desynchronise the protocol: refused without asking git.
      expect(await p.read("main\ninfo main")).toBeNull();
      // Work-tree-relative paths make a bare repository's git die: refused as well.
      expect(await p.read("main:./a b.txt")).toBeNull();
      expect(await p.info("main:../a b.txt")).toBeNull();
      expect(p.alive).toBe(true);
    } finally {
      p.close();
    }
  });

  it("sees ref moves and new objects made after it started", async () => {
    const p = new CatFileProcess(dir);
    try {
      const first = (await p.info("main"))!.oid;
      const next = makeCommit(dir, { parents: [first], message: "next\n", files: { "new.txt": "new\n" } });
      gitIn(dir, "update-ref", "refs/heads/main", next, first);
      expect((await p.info("main"))!.oid).toBe(next);
      expect((await p.read("main:new.txt"))!.data.toString()).toBe("new\n");
      gitIn(dir, "pack-refs", "--all");
      const third = makeCommit(dir, { parents: [next], message: "third\n" });
      gitIn(dir, "update-ref", "refs/heads/main", third, next);
      expect((await p.info("main"))!.oid).toBe(third);
    } finally {
      p.close();
    }
  });

  it("rejects pending and later requests once closed", async () => {
    const p = new CatFileProcess(dir);
    p.close();
    expect(p.alive).toBe(false);
    await expect(p.read("main")).rejects.toThrow(/closed/);
  });
});

describe("CatFilePool", () => {
  it("reuses one process per repository for sequential reads", async () => {
    const pool = new CatFilePool({ idleMs: 60_000 });
    try {
      for (let i = 0; i < 5; i++) expect((await pool.info(dir, "main"))?.type).toBe("commit");
      expect(pool.size).toBe(1);
      await pool.info(other, "HEAD");
      expect(pool.size).toBe(2);
    } finally {
      pool.close();
    }
  });

  it("stays within its bounds under concurrency and evicts idle processes", async () => {
    const pool = new CatFilePool({ maxProcesses: 3, maxPerRepository: 2, idleMs: 100 });
    try {
      const reads = await Promise.all(Array.from({ length: 40 }, (_, i) => pool.read(i % 2 ? dir : other, "HEAD")));
      expect(reads.filter((r) => r !== null).length).toBe(20); // `other` is empty: HEAD is missing there
      expect(pool.size).toBeLessThanOrEqual(3);
      await new Promise((r) => setTimeout(r, 400));
      expect(pool.size).toBe(0);
      // Still usable after eviction.
      expect((await pool.info(dir, "main"))?.type).toBe("commit");
    } finally {
      pool.close();
    }
  });

  it("keeps no process with pooling off (maxProcesses 0): one process per read", async () => {
    const pool = new CatFilePool({ maxProcesses: 0 });
    try {
      const reads = await Promise.all([pool.info(dir, "main"), pool.read(dir, "main")]);
      expect(reads.map((r) => r?.type)).toEqual(["commit", "commit"]);
      expect(pool.size).toBe(0);
    } finally {
      pool.close();
    }
  });

  it("drops a process that died and starts a new one", async () => {
    const pool = new CatFilePool();
    try {
      await pool.use(dir, async (p) => p.close());
      expect(pool.size).toBe(0);
      expect((await pool.info(dir, "main"))?.type).toBe("commit");
      expect(pool.size).toBe(1);
    } finally {
      pool.close();
    }
  });
});
