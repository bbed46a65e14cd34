import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { gitIn, gitOk, makeCommit } from "../../test/support.ts";
import { GitError, NULL_SHA } from "./git.ts";
import { GitSessionPool } from "./git-sessions.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "quarry-sessions-"));
const pool = new GitSessionPool();
afterAll(() => {
  pool.close();
  rmSync(scratch, { recursive: true, force: true });
});

let dir: string;
let n = 0;
let first: string;
let second: string;
beforeEach(() => {
  dir = path.join(scratch, `r${n++}.git`);
  execFileSync("git", ["init", "--quiet", "--bare", dir]);
  first = makeCommit(dir, { message: "First\n", files: { "a.txt": "a\n" } });
  second = makeCommit(dir, { message: "Second\n", files: { "a.txt": "a\nb\n", "c.txt": "c\n" }, parents: [first] });
});

const head = (ref = "refs/heads/main") => (gitOk(dir, "rev-parse", "--verify", "-q", ref) ? gitIn(dir, "rev-parse", ref) : "");

describe("GitSessionPool.updateRef", () => {
  it("creates, moves and deletes a ref only from the value it expects", async () => {
    await pool.updateRef(dir, "refs/heads/main", first, NULL_SHA);
    expect(head()).toBe(first);
    const stale = await pool.updateRef(dir, "refs/heads/main", second, second).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(GitError);
    expect((stale as GitError).stderr).toMatch(/cannot lock ref 'refs\/heads\/main': is at [0-9a-f]{40} but expected [0-9a-f]{40}/);
    expect(head()).toBe(first);
    // The failed transaction ended its process; the next one gets a new process.
    await pool.updateRef(dir, "refs/heads/main", second, first);
    expect(head()).toBe(second);
    await expect(pool.updateRef(dir, "refs/heads/main", first, NULL_SHA)).rejects.toBeInstanceOf(GitError);
    await pool.updateRef(dir, "refs/heads/main", NULL_SHA, second);
    expect(head()).toBe("");
  });

  it("answers queued transactions one by one: of racing writers with the same expectation exactly one wins", async () => {
    await pool.updateRef(dir, "refs/heads/main", first, NULL_SHA);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => pool.updateRef(dir, "refs/heads/main", second, first)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(4);
    // Losers queued behind the failure did not poison the queue.
    await pool.updateRef(dir, "refs/heads/other", first, NULL_SHA);
    expect([head(), head("refs/heads/other")]).toEqual([second, first]);
  });
});

describe("GitSessionPool timeouts", () => {
  it("ends a process whose request takes too long, and serves the next request with a new one", async () => {
    const impatient = new GitSessionPool({ timeoutMs: 200 });
    try {
      // git is told to wait for a ref lock as long as it takes, and someone else holds the lock.
      gitIn(dir, "config", "core.filesRefLockTimeout", "-1");
      await impatient.updateRef(dir, "refs/heads/main", first, NULL_SHA);
      writeFileSync(path.join(dir, "refs/heads/main.lock"), `${first}\n`);
      await expect(impatient.updateRef(dir, "refs/heads/main", second, first)).rejects.toBeInstanceOf(GitError);
      rmSync(path.join(dir, "refs/heads/main.lock"));
      await impatient.updateRef(dir, "refs/heads/main", second, first);
      expect(head()).toBe(second);
    } finally {
      impatient.close();
    }
  });
});

describe("GitSessionPool.diffTree", () => {
  it("answers each request with what `git diff-tree` prints for it, on one process", async () => {
    const args = ["-r", "--root", "--no-commit-id", "-z", "--numstat"];
    for (const commit of [second, first, second]) {
      expect(await pool.diffTree(dir, args, commit)).toBe(execFileSync("git", ["--git-dir", dir, "diff-tree", ...args, commit]).toString());
    }
    expect(await pool.diffTree(dir, args, second)).toBe("1\t0\ta.txt\x001\t0\tc.txt\x00");
  });
});
