// Test servers: DATABASE_URL when set, otherwise one embedded PostgreSQL per
// test file (this package cannot use @quarry/testing, which depends on it).
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { databaseUrlFor, dropDatabase, ensureDatabase } from "../src/migrations.ts";
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from "../src/embedded.ts";

let embedded: Promise<EmbeddedPostgresServer> | undefined;
let tempRoot: string | undefined;

/** A temp dir that the `postgres` user can traverse when tests run as root. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

export async function serverUrl(): Promise<string> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return fromEnv;
  embedded ??= (async () => {
    tempRoot = makeTempDir("quarry-db-test-");
    return startEmbeddedPostgres({ dataDir: path.join(tempRoot, "data"), durable: false });
  })();
  return (await embedded).url;
}

export async function stopServer(): Promise<void> {
  if (!embedded) return;
  await (await embedded).stop();
  embedded = undefined;
  if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
}

export function uniqueDbName(): string {
  return `qt_${randomBytes(6).toString("hex")}`;
}

/** A fresh, uniquely named database; `drop` force-drops it. */
export async function freshDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const server = await serverUrl();
  const name = uniqueDbName();
  await ensureDatabase(server, name);
  return { name, url: databaseUrlFor(server, name), drop: () => dropDatabase(server, name) };
}
