import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InProcessBus } from "@quarry/bus";
import { silentLogger } from "@quarry/logger";
import { createTestDatabase } from "@quarry/testing";
import { afterEach, describe, expect, it } from "vitest";
import { gitIn, gitOk, makeCommit } from "../../test/support.ts";
import { startRepoService } from "../server.ts";
import { removeStaleLocks } from "./stale-locks.ts";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function storage(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "quarry-stale-locks-"));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** A bare repository at the hashed path with `main` at a first commit. */
function repository(root: string, name: string): { dir: string; commit: string } {
  const dir = path.join(root, "@hashed", name.slice(0, 2), name.slice(2, 4), `${name}.git`);
  mkdirSync(path.dirname(dir), { recursive: true });
  execFileSync("git", ["init", "--bare", "--quiet", dir]);
  const commit = makeCommit(dir);
  gitIn(dir, "update-ref", "refs/heads/main", commit);
  return { dir, commit };
}

/** A lock as a killed git leaves it, dated before the start. */
function staleLock(file: string): string {
  const lock = `${file}.lock`;
  writeFileSync(lock, "");
  const past = new Date(Date.now() - 60_000);
  utimesSync(lock, past, past);
  return lock;
}

describe("removeStaleLocks", () => {
  it("removes locks left from before the start, after which git writes again", async () => {
    const root = storage();
    const { dir, commit } = repository(root, "aabbcc");
    const locks = [
      staleLock(path.join(dir, "refs/heads/main")),
      staleLock(path.join(dir, "packed-refs")),
      staleLock(path.join(dir, "HEAD")),
      staleLock(path.join(dir, "config")),
    ];
    const next = makeCommit(dir, { parents: [commit], message: "Next\n" });
    expect(gitOk(dir, "update-ref", "refs/heads/main", next, commit)).toBe(false);
    expect(gitOk(dir, "update-ref", "-d", "refs/heads/main", commit)).toBe(false);

    expect((await removeStaleLocks(root, Date.now())).sort()).toEqual(locks.sort());
    for (const lock of locks) expect(existsSync(lock)).toBe(false);
    expect(gitOk(dir, "update-ref", "refs/heads/main", next, commit)).toBe(true);
    gitIn(dir, "pack-refs", "--all");
    expect(gitOk(dir, "update-ref", "-d", "refs/heads/main", next)).toBe(true);
  });

  it("keeps locks made after the start", async () => {
    const root = storage();
    const { dir } = repository(root, "ddeeff");
    const startedAt = Date.now() - 60_000;
    const lock = `${path.join(dir, "refs/heads/main")}.lock`;
    writeFileSync(lock, "");
    expect(await removeStaleLocks(root, startedAt)).toEqual([]);
    expect(existsSync(lock)).toBe(true);
  });

  it("keeps the locks of a repository a running process works in", async () => {
    const root = storage();
    const busy = repository(root, "112233");
    const idle = repository(root, "445566");
    const busyLock = staleLock(path.join(busy.dir, "refs/heads/main"));
    const idleLock = staleLock(path.join(idle.dir, "refs/heads/main"));
    // A git left running from before the start, still at work in its repository.
    const git: ChildProcess = spawn("git", ["--git-dir", busy.dir, "cat-file", "--batch"], { stdio: ["pipe", "ignore", "ignore"] });
    cleanups.push(() => git.kill());
    await new Promise((r) => git.once("spawn", r));

    expect(await removeStaleLocks(root, Date.now())).toEqual([idleLock]);
    expect(existsSync(busyLock)).toBe(true);
  });

  it("runs when repo-service starts", async () => {
    const root = storage();
    const { dir } = repository(root, "778899");
    const lock = staleLock(path.join(dir, "refs/heads/main"));
    const db = await createTestDatabase("repo_stale_locks");
    cleanups.push(() => db.drop());
    const bus = new InProcessBus();
    cleanups.push(() => bus.close());
    const service = await startRepoService({ databaseUrl: db.url, grpcAddress: "127.0.0.1:0", storageRoot: root, bus, log: silentLogger() });
    cleanups.push(() => service.stop());
    expect(existsSync(lock)).toBe(false);
  });
});
