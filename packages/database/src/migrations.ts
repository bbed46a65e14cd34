// Applies Prisma-layout SQL migrations and records them in `_prisma_migrations`
// exactly as `prisma migrate deploy` does (prisma-engines: apply_migrations.rs,
// sql_migration_persistence.rs, flavour/postgres.rs), so our applier and the
// real CLI can take turns on the same database.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";

export interface Migration {
  /** Folder name, e.g. `20261121000000_init`. */
  name: string;
  /** Contents of `migration.sql`. */
  sql: string;
  /** SHA-256 hex of the script, as Prisma computes it. */
  checksum: string;
}

export interface ApplyMigrationsOptions {
  /** Progress and warnings. Defaults to stderr. */
  log?: (msg: string) => void;
}

/** Same constant as Prisma Migrate, so we and the real CLI exclude each other. */
export const PRISMA_MIGRATE_LOCK_ID = 72707369;

const MIGRATIONS_TABLE = "_prisma_migrations";

// Verbatim from prisma-engines (flavour/postgres.rs, create_migrations_table).
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);
`;

const RESOLVE_HINT = "Read more about how to resolve migration issues in a production database: https://pris.ly/d/migrate-resolve";

/** Errors carry Prisma's error code (P3005, P3009, P3018, P3019) so operators can look them up. */
export class MigrationError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(`${code}: ${message}`, options);
    this.name = "MigrationError";
    this.code = code;
  }
}

/**
 * Prisma's checksum: SHA-256 over the UTF-8 bytes of the script, lowercase hex,
 * zero-padded (prisma-engines checksum.rs `render_checksum`).
 */
export function migrationChecksum(sql: string): string {
  return createHash("sha256").update(sql, "utf8").digest("hex");
}

/**
 * Prisma's comparison (checksum.rs `script_matches_checksum`): line-ending
 * agnostic, and tolerant of the old non-zero-padded checksum format.
 */
export function checksumMatches(sql: string, recorded: string): boolean {
  const variants = [sql, sql.replaceAll("\r\n", "\n"), sql.replaceAll("\n", "\r\n")];
  return variants.some((script) => {
    const digest = createHash("sha256").update(script, "utf8").digest();
    const rendered =
      recorded.length !== 0 && recorded.length !== 64
        ? Array.from(digest, (b) => b.toString(16)).join("") // legacy, unpadded
        : digest.toString("hex");
    return rendered === recorded;
  });
}

/** Prisma sorts migration folders with `localeCompare`; we must apply in the same order. */
export function compareMigrationNames(a: string, b: string): number {
  return a.localeCompare(b);
}

/**
 * Reads `<dir>/<name>/migration.sql` for every sub-folder, sorted by name.
 * Non-directories (migration_lock.toml) are ignored. Throws when the directory
 * is missing (Prisma silently treats that as "no migrations", which hides a
 * wrong path), when a folder has no migration.sql, or when migration_lock.toml
 * names a provider other than postgresql (Prisma's P3019).
 */
export function readMigrationsDir(dir: string): Migration[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new Error(`migrations directory not found: ${dir}`);
  }
  const lockPath = path.join(dir, "migration_lock.toml");
  if (existsSync(lockPath)) checkLockfile(readFileSync(lockPath, "utf8"), lockPath);

  const migrations: Migration[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = path.join(dir, entry.name, "migration.sql");
    if (!existsSync(file)) {
      throw new Error(`migration folder ${entry.name} has no migration.sql (${file})`);
    }
    // Read as a string, like Prisma does (utf-8), then hash that string.
    const sql = readFileSync(file, "utf8");
    migrations.push({ name: entry.name, sql, checksum: migrationChecksum(sql) });
  }
  return migrations.sort((a, b) => compareMigrationNames(a.name, b.name));
}

function checkLockfile(content: string, where: string): void {
  // Same parsing as prisma-engines `read_provider_from_lock_file`.
  const line = content.split(/\r?\n/).find((l) => l.startsWith("provider"));
  const provider = line ? line.replace(/^provider = /, "").replace(/^"+|"+$/g, "") : "<PROVIDER NOT FOUND>";
  if (provider !== "postgresql") {
    throw new MigrationError("P3019", `The migrations in ${where} were created for provider "${provider}", not "postgresql".`);
  }
}

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
}

/**
 * Applies every migration not yet recorded as applied, in array order.
 *
 * Behaviour, matching `prisma migrate deploy`:
 * - Holds the session advisory lock 72707369 for the whole run, so replicas
 *   and the Prisma CLI never apply concurrently (we wait; Prisma gives up after 10 s).
 * - Creates `_prisma_migrations` with Prisma's DDL when missing; refuses (P3005)
 *   if the table is missing but the schema already contains tables, since
 *   that database was not created by these migrations (baseline it first).
 * - Per migration: insert a row (uuid, checksum, name, started_at), send the
 *   script as one simple-protocol query (PostgreSQL runs a multi-statement
 *   query as one implicit transaction, so a failure rolls all of it back),
 *   then `applied_steps_count + 1` and `finished_at`.
 * - On failure: the row keeps `finished_at` NULL and gets the error in `logs`;
 *   a MigrationError P3018 is thrown.
 * - While such a failed row exists (finished_at and rolled_back_at both NULL)
 *   every later run refuses with P3009 and applies nothing. Fix the database by
 *   hand, then mark the row resolved: `prisma migrate resolve --rolled-back <name>`
 *   (or `UPDATE _prisma_migrations SET rolled_back_at = now() WHERE id = …`) to
 *   have it re-applied, or `--applied <name>` if you completed it manually.
 * - Rows with `rolled_back_at` set are ignored, so such migrations run again.
 * - Warns (does not fail) when an applied migration's checksum differs from the
 *   local file, or when the database records a migration that no longer exists locally.
 *
 * A `?schema=` parameter in the URL is honoured like Prisma does (search_path).
 */
export async function applyMigrations(databaseUrl: string, migrations: Migration[], opts: ApplyMigrationsOptions = {}): Promise<{ applied: string[] }> {
  const log = opts.log ?? ((msg: string) => console.error(`[migrations] ${msg}`));
  const schema = schemaFromUrl(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  // A dropped connection surfaces through the pending query; don't crash the process.
  client.on("error", () => {});
  await client.connect();
  let locked = false;
  try {
    if (schema !== "public") {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    }
    await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_ID]);
    locked = true;

    await ensureMigrationsTable(client, schema);

    const { rows } = await client.query<MigrationRow>(
      `SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at
         FROM ${MIGRATIONS_TABLE} ORDER BY started_at ASC`,
    );

    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed.length > 0) {
      const details = failed
        .map((r) => {
          const logs = r.logs?.trim() ? ` with the following logs:\n${r.logs.trim()}` : "";
          return `The \`${r.migration_name}\` migration started at ${r.started_at.toISOString()} failed${logs}`;
        })
        .join("\n");
      throw new MigrationError(
        "P3009",
        `migrate found failed migrations in the target database, new migrations will not be applied. ${RESOLVE_HINT}\n${details}`,
      );
    }

    const live = rows.filter((r) => r.rolled_back_at === null);
    const local = new Map(migrations.map((m) => [m.name, m]));
    for (const row of live) {
      const m = local.get(row.migration_name);
      if (!m) {
        log(`warning: migration ${row.migration_name} is recorded as applied but is missing locally`);
      } else if (!checksumMatches(m.sql, row.checksum)) {
        log(`warning: migration ${row.migration_name} was modified after it was applied (checksum differs)`);
      }
    }

    const appliedNames = new Set(live.map((r) => r.migration_name));
    const applied: string[] = [];
    for (const m of migrations) {
      if (appliedNames.has(m.name)) continue;
      log(`applying ${m.name}`);
      const id = randomUUID();
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (id, checksum, started_at, migration_name) VALUES ($1, $2, now(), $3)`, [id, m.checksum, m.name]);
      try {
        // No parameters => simple query protocol => one implicit transaction,
        // exactly how Prisma sends the script (and it keeps statements such as
        // CREATE INDEX CONCURRENTLY usable when alone in a migration).
        await client.query(m.sql);
      } catch (err) {
        // Only needed if the script opened its own transaction block; harmless otherwise.
        await client.query("ROLLBACK").catch(() => {});
        const logs = describeScriptError(m, err);
        await client.query(`UPDATE ${MIGRATIONS_TABLE} SET logs = $2 WHERE id = $1`, [id, logs]);
        throw new MigrationError("P3018", logs, { cause: err });
      }
      await client.query(`UPDATE ${MIGRATIONS_TABLE} SET applied_steps_count = applied_steps_count + 1 WHERE id = $1`, [id]);
      await client.query(`UPDATE ${MIGRATIONS_TABLE} SET finished_at = now() WHERE id = $1`, [id]);
      applied.push(m.name);
    }
    if (applied.length === 0) log("no pending migrations");
    return { applied };
  } finally {
    if (locked) await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_ID]).catch(() => {});
    await client.end().catch(() => {});
  }
}

async function ensureMigrationsTable(client: pg.Client, schema: string): Promise<void> {
  // Same checks as prisma-engines `initialize`: only ordinary tables (relkind 'r') count.
  const { rows } = await client.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = $1`,
    [schema],
  );
  const names = rows.map((r) => r.relname);
  if (names.includes(MIGRATIONS_TABLE)) return;
  const others = names.filter((n) => n !== "spatial_ref_sys"); // PostGIS's own table
  if (others.length > 0) {
    throw new MigrationError(
      "P3005",
      `The database schema "${schema}" is not empty (found ${others.slice(0, 5).join(", ")}${others.length > 5 ? ", …" : ""}) ` +
        "but has no _prisma_migrations table. Baseline it (https://pris.ly/d/migrate-baseline) or use an empty database.",
    );
  }
  await client.query(CREATE_MIGRATIONS_TABLE);
}

/** The text Prisma stores in `logs` for a failed script (P3018 message). */
function describeScriptError(m: Migration, err: unknown): string {
  const e = err as Partial<pg.DatabaseError> & Error;
  let dbError: string;
  if (typeof e.code === "string" && typeof e.severity === "string") {
    dbError = `${e.severity}: ${e.message}`;
    if (e.detail) dbError += `\nDETAIL: ${e.detail}`;
    if (e.hint) dbError += `\nHINT: ${e.hint}`;
    if (e.position) dbError += errorPosition(m.sql, Number(e.position));
  } else {
    dbError = e instanceof Error ? e.message : String(err);
  }
  return (
    `A migration failed to apply. New migrations cannot be applied before the error is recovered from. ${RESOLVE_HINT}\n\n` +
    `Migration name: ${m.name}\n\nDatabase error code: ${e.code ?? "none"}\n\nDatabase error:\n${dbError}\n`
  );
}

/** Shows the failing line with a little context; PostgreSQL positions are 1-based characters. */
function errorPosition(sql: string, position: number): string {
  if (!Number.isFinite(position) || position < 1) return "";
  const chars = Array.from(sql);
  const before = chars.slice(0, position - 1).join("");
  const lineNo = before.split("\n").length;
  const lines = sql.split("\n");
  const from = Math.max(1, lineNo - 5);
  const shown: string[] = [];
  for (let n = from; n <= lineNo; n++) shown.push(`${String(n).padStart(3)} ${lines[n - 1] ?? ""}`);
  return `\n\nPosition:\n${shown.join("\n")}`;
}

function schemaFromUrl(url: string): string {
  try {
    return new URL(url).searchParams.get("schema") || "public";
  } catch {
    return "public";
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Returns `baseUrl` with its database name replaced by `dbName` (credentials and query kept). */
export function databaseUrlFor(baseUrl: string, dbName: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${encodeURIComponent(dbName)}`;
  return url.toString();
}

function databaseNameError(dbName: string): string | undefined {
  if (dbName.length === 0) return "database name must not be empty";
  // PostgreSQL silently truncates longer identifiers, which would hit the wrong database.
  if (Buffer.byteLength(dbName, "utf8") > 63) return `database name longer than 63 bytes: ${dbName}`;
  return undefined;
}

/**
 * Creates `dbName` on the server at `serverUrl` if it does not exist.
 * Safe under concurrency: a racing CREATE DATABASE is tolerated.
 * Returns true when this call created it.
 */
export async function ensureDatabase(serverUrl: string, dbName: string): Promise<boolean> {
  const problem = databaseNameError(dbName);
  if (problem) throw new Error(problem);
  const client = new pg.Client({ connectionString: serverUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [dbName]);
    if (rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(dbName)}`);
      return true;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      // 42P04 duplicate_database; 23505 when two creates race on pg_database's unique index.
      if (code === "42P04" || code === "23505") return false;
      throw err;
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/** Drops `dbName` if it exists, disconnecting its sessions (PostgreSQL 13+ `WITH (FORCE)`). */
export async function dropDatabase(serverUrl: string, dbName: string): Promise<void> {
  const problem = databaseNameError(dbName);
  if (problem) throw new Error(problem);
  const client = new pg.Client({ connectionString: serverUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(dbName)} WITH (FORCE)`);
  } finally {
    await client.end().catch(() => {});
  }
}
