// Always uses its own embedded server (also when DATABASE_URL is set): this is what it tests.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
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

async function start(dataDir: string, port?: number): Promise<EmbeddedPostgresServer> {
  const server = await startEmbeddedPostgres({ dataDir, port, durable: false });
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

  it("refuses a data directory that a running server still owns", async () => {
    const dataDir = tempDataDir();
    await start(dataDir);
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/in use by running postgres pid/);
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
});
