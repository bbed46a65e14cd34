// The distributed mode for real: every service its own `node services/<name>/dist/main.js`
// process (the built bundles), with fresh PostgreSQL databases, a private NATS JetStream server,
// s3rver for artifacts, and two replicas of each stateless service behind TCP fronts
// (proxy.ts). Everything started here is stopped and removed by `stop()`, also after a failed start.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { databaseUrlFor, dropDatabase, ensureDatabase } from "@quarry/database";
import { testPostgresServer } from "@quarry/testing";
import S3rver from "s3rver";
import { listenPorts } from "./ports.ts";
import { type ReplicaProxy, startReplicaProxy } from "./proxy.ts";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bundle = (service: string) => path.join(REPO_ROOT, "services", service, "dist", "main.js");

/** One process of one service: restartable on the same address. */
export class ServiceProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<unknown> = Promise.resolve();
  /** Log lines of every run of this process (JSON lines of pino). */
  readonly logFile: string;
  /** Runs so far. */
  starts = 0;

  constructor(
    readonly name: string,
    readonly service: string,
    /** host:port of its gRPC server, or of its HTTP server for the gateway. */
    readonly address: string,
    private readonly env: Record<string, string>,
    logDir: string,
  ) {
    this.logFile = path.join(logDir, `${name}.log`);
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Starts the process and resolves once it logs that it listens (`<service> listening`). A
   * process that exits before that is started again, twice at most, as a supervisor (Kubernetes)
   * would: on a loaded machine a start can time out talking to NATS or PostgreSQL.
   */
  async start(timeoutMs = 150_000): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce(timeoutMs);
      } catch (err) {
        if (attempt >= 3 || this.running) throw err;
      }
    }
  }

  private async startOnce(timeoutMs: number): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    const run = ++this.starts;
    const out = createWriteStream(this.logFile, { flags: "a" });
    const child = spawn(process.execPath, [bundle(this.service)], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir(), ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    this.exited = once(child, "exit").catch(() => {});
    child.stderr!.pipe(out, { end: false });
    let buffered = "";
    const listening = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} (run ${run}) did not listen within ${timeoutMs} ms; see ${this.logFile}`)), timeoutMs);
      child.stdout!.on("data", (chunk: Buffer) => {
        out.write(chunk);
        buffered += chunk.toString("utf8");
        for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (line.includes(`"msg":"${this.service} listening"`)) {
            clearTimeout(timer);
            resolve();
          }
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} (run ${run}) exited (${code ?? signal}) before listening; see ${this.logFile}:\n${tail(this.logFile)}`));
      });
    });
    await listening;
  }

  /** `kill -9`: no shutdown of any kind. Resolves once the process is gone. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child!.kill("SIGKILL");
    await this.exited;
  }

  /** SIGTERM (the services' graceful stop), SIGKILL after 10 s. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child!.kill("SIGTERM");
    const timer = setTimeout(() => this.child?.kill("SIGKILL"), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

export const ROOT_TOKEN = "glpat-distributed-root-token-0000";
const KEY = "distributed-test encryption key, 32+ characters";

export interface Cluster {
  /** The two gateways' base URLs. */
  gateways: [ServiceProcess, ServiceProcess];
  urls: [string, string];
  /** Replicas by kind. */
  replicas: {
    gateway: [ServiceProcess, ServiceProcess];
    ciWorker: [ServiceProcess, ServiceProcess];
    hook: [ServiceProcess, ServiceProcess];
    mirror: [ServiceProcess, ServiceProcess];
    collab: [ServiceProcess, ServiceProcess];
  };
  ciApi: ServiceProcess;
  ciArtifacts: ServiceProcess;
  all: ServiceProcess[];
  /** GRPC_DEADLINE_MS of every process. */
  deadlineMs: number;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Webhook receivers, mirror remotes and the SMTP server are on loopback. */
  smtpUrl: string;
  deadlineMs?: number;
  /**
   * Gets the cluster's stop before anything starts, so that a caller whose set-up times out (while
   * this still starts) can still stop everything.
   */
  registerStop?(stop: () => Promise<void>): void;
}

/** Starts the whole cluster; on failure stops what it started and rethrows. */
export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  for (const service of [
    "identity-service",
    "repo-service",
    "ci-service",
    "hook-service",
    "mirror-service",
    "collab-service",
    "error-tracking-service",
    "activity-service",
    "gateway",
  ])
    if (!existsSync(bundle(service))) throw new Error(`${bundle(service)} is missing: build the services first (turbo runs their build before this test)`);

  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  let stopped = false;
  const stop = async () => {
    stopped = true;
    while (cleanups.length) {
      const c = cleanups.pop()!;
      let timer: NodeJS.Timeout | undefined;
      try {
        // Bounded, and failures ignored: one stuck or failing step must not leave the rest behind.
        await Promise.race([c(), new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
      } catch {
        // next step
      } finally {
        clearTimeout(timer);
      }
    }
  };
  o.registerStop?.(stop);
  /** Throws once stop() ran (a caller gave up): the start must not go on starting things. */
  const alive = () => {
    if (stopped) throw new Error("cluster stopped while starting");
  };
  const processes: ServiceProcess[] = [];
  try {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "quarry-distributed-"));
    const logDir = path.join(tmp, "logs");
    cleanups.push(() => {
      // QUARRY_DIST_KEEP_LOGS=<dir>: the processes' logs are copied there before the rest goes.
      const keep = process.env.QUARRY_DIST_KEEP_LOGS;
      if (keep) cpSync(logDir, keep, { recursive: true });
      rmSync(tmp, { recursive: true, force: true });
    });
    const deadlineMs = o.deadlineMs ?? 10_000;
    const freePort = listenPorts();

    // NATS JetStream of its own: no stream or consumer of the shared server is touched.
    const natsPort = await freePort();
    const nats = spawn("nats-server", ["-js", "-a", "127.0.0.1", "-p", String(natsPort), "-sd", path.join(tmp, "nats")], { stdio: "ignore" });
    let natsFailed: Error | undefined;
    // Not installed (ENOENT): said at once instead of as a port that never opens.
    nats.once("error", (err) => (natsFailed = new Error(`nats-server could not be started (Debian package nats-server): ${err.message}`)));
    const natsExited = once(nats, "exit").catch(() => {});
    cleanups.push(async () => {
      nats.kill("SIGKILL");
      await natsExited;
    });
    await waitForPort(natsPort, 20_000, () => natsFailed);
    const natsUrl = `nats://127.0.0.1:${natsPort}`;

    const s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: path.join(tmp, "s3") });
    const { port: s3Port } = await s3.run();
    cleanups.push(() => s3.close());

    const server = await testPostgresServer();
    const databases: string[] = [];
    const database = async (service: string) => {
      const name = `dist_${process.pid}_${service}`;
      await ensureDatabase(server, name);
      databases.push(name);
      return databaseUrlFor(server, name);
    };
    cleanups.push(async () => {
      for (const name of databases) await dropDatabase(server, name).catch(() => {});
    });
    cleanups.push(() => Promise.all(processes.map((p) => p.kill())));

    const address = async () => `127.0.0.1:${await freePort()}`;
    // METRICS_PORT 0: replicas on one host would all want the default 9464 (each pod has its own in a cluster).
    const make = (name: string, service: string, addr: string, env: Record<string, string>) => {
      const p = new ServiceProcess(
        name,
        service,
        addr,
        { NATS_URL: natsUrl, LOG_LEVEL: "info", GRPC_DEADLINE_MS: String(deadlineMs), METRICS_PORT: "0", ...env },
        logDir,
      );
      processes.push(p);
      return p;
    };
    const proxies: ReplicaProxy[] = [];
    const front = async (replicas: ServiceProcess[]) => {
      const proxy = await startReplicaProxy(() => replicas.map((r) => r.address));
      proxies.push(proxy);
      return proxy.address;
    };
    cleanups.push(() => Promise.all(proxies.map((p) => p.close())));
    mkdirSync(logDir, { recursive: true });

    const [identityAddr, repoAddr, etAddr, activityAddr, ciApiAddr, ciArtifactsAddr] = await Promise.all([
      address(),
      address(),
      address(),
      address(),
      address(),
      address(),
    ]);
    const pair = async () => [await address(), await address()] as const;
    const [hookAddrs, mirrorAddrs, collabAddrs, ciWorkerAddrs] = [await pair(), await pair(), await pair(), await pair()];
    const gatewayPorts = [await freePort(), await freePort()];

    const ci = (addr: string, role: string) => ({
      DATABASE_URL: "",
      GRPC_ADDRESS: addr,
      REPO_SERVICE_ADDRESS: repoAddr,
      IDENTITY_SERVICE_ADDRESS: identityAddr,
      QUARRY_CI_ENCRYPTION_KEY: KEY,
      QUARRY_CI_ROLE: role,
      // The watchdog and cleanup run often; they must be safe beside each other.
      QUARRY_CI_WORKER_INTERVAL_SECONDS: "2",
      MINIO_ENDPOINT: "127.0.0.1",
      MINIO_PORT: String(s3Port),
      MINIO_ACCESS_KEY: "S3RVER",
      MINIO_SECRET_KEY: "S3RVER",
      QUARRY_ARTIFACTS_BUCKET: "artifacts",
    });
    const ciDb = await database("ci");
    const withDb = (env: Record<string, string>, url: string) => ({ ...env, DATABASE_URL: url });

    const identity = make("identity", "identity-service", identityAddr, {
      DATABASE_URL: await database("identity"),
      GRPC_ADDRESS: identityAddr,
      REPO_SERVICE_ADDRESS: repoAddr,
      QUARRY_ROOT_TOKEN: ROOT_TOKEN,
      QUARRY_IDENTITY_ENCRYPTION_KEY: KEY,
      QUARRY_OBJECT_STORE_DIR: path.join(tmp, "objects"),
    });
    const repo = make("repo", "repo-service", repoAddr, {
      DATABASE_URL: await database("repo"),
      GRPC_ADDRESS: repoAddr,
      QUARRY_STORAGE_ROOT: path.join(tmp, "repositories"),
      IDENTITY_SERVICE_ADDRESS: identityAddr,
      QUARRY_EXTERNAL_URL: `http://127.0.0.1:${gatewayPorts[0]}`,
    });
    make("error-tracking", "error-tracking-service", etAddr, { DATABASE_URL: await database("error_tracking"), GRPC_ADDRESS: etAddr });
    make("activity", "activity-service", activityAddr, {
      DATABASE_URL: await database("activity"),
      GRPC_ADDRESS: activityAddr,
      IDENTITY_SERVICE_ADDRESS: identityAddr,
    });
    const ciApi = make("ci-api", "ci-service", ciApiAddr, withDb(ci(ciApiAddr, "api"), ciDb));
    const ciArtifacts = make("ci-artifacts", "ci-service", ciArtifactsAddr, withDb(ci(ciArtifactsAddr, "artifacts"), ciDb));
    const ciWorkers = ciWorkerAddrs.map((a, i) => make(`ci-worker-${i + 1}`, "ci-service", a, withDb(ci(a, "worker"), ciDb))) as [
      ServiceProcess,
      ServiceProcess,
    ];

    const collabDb = await database("collab");
    const collabs = collabAddrs.map((a, i) =>
      make(`collab-${i + 1}`, "collab-service", a, {
        DATABASE_URL: collabDb,
        GRPC_ADDRESS: a,
        IDENTITY_SERVICE_ADDRESS: identityAddr,
        REPO_SERVICE_ADDRESS: repoAddr,
      }),
    ) as [ServiceProcess, ServiceProcess];
    const collabFront = await front(collabs);
    const hookDb = await database("hook");
    const hooks = hookAddrs.map((a, i) =>
      make(`hook-${i + 1}`, "hook-service", a, {
        DATABASE_URL: hookDb,
        GRPC_ADDRESS: a,
        IDENTITY_SERVICE_ADDRESS: identityAddr,
        REPO_SERVICE_ADDRESS: repoAddr,
        COLLAB_SERVICE_ADDRESS: collabFront,
        QUARRY_HOOK_ENCRYPTION_KEY: KEY,
        QUARRY_ALLOW_LOCAL_REQUESTS: "true",
        QUARRY_EXTERNAL_URL: `http://127.0.0.1:${gatewayPorts[0]}`,
        // A delivery whose replica died is retried after timeout + 30 s (its lease).
        QUARRY_HOOK_TIMEOUT_MS: "2000",
        QUARRY_HOOK_RETRY_BASE_MS: "500",
        QUARRY_SMTP_URL: o.smtpUrl,
        QUARRY_EMAIL_FROM: "quarry@example.com",
      }),
    ) as [ServiceProcess, ServiceProcess];
    const mirrorDb = await database("mirror");
    const mirrors = mirrorAddrs.map((a, i) =>
      make(`mirror-${i + 1}`, "mirror-service", a, {
        DATABASE_URL: mirrorDb,
        GRPC_ADDRESS: a,
        REPO_SERVICE_ADDRESS: repoAddr,
        IDENTITY_SERVICE_ADDRESS: identityAddr,
        QUARRY_MIRROR_ENCRYPTION_KEY: KEY,
        QUARRY_ALLOW_LOCAL_REQUESTS: "true",
      }),
    ) as [ServiceProcess, ServiceProcess];
    const [hookFront, mirrorFront] = [await front(hooks), await front(mirrors)];
    const gateways = gatewayPorts.map((port, i) =>
      make(`gateway-${i + 1}`, "gateway", `127.0.0.1:${port}`, {
        PORT: String(port),
        HOST: "127.0.0.1",
        QUARRY_EXTERNAL_URL: `http://127.0.0.1:${port}`,
        IDENTITY_SERVICE_ADDRESS: identityAddr,
        REPO_SERVICE_ADDRESS: repoAddr,
        CI_SERVICE_ADDRESS: ciApiAddr,
        CI_ARTIFACTS_ADDRESS: ciArtifactsAddr,
        MIRROR_SERVICE_ADDRESS: mirrorFront,
        HOOK_SERVICE_ADDRESS: hookFront,
        COLLAB_SERVICE_ADDRESS: collabFront,
        ERROR_TRACKING_SERVICE_ADDRESS: etAddr,
        ACTIVITY_SERVICE_ADDRESS: activityAddr,
        // Runners' job requests answer at once: the test's runners poll.
        QUARRY_JOB_REQUEST_WAIT_MS: "0",
      }),
    ) as [ServiceProcess, ServiceProcess];

    // Storage and identity first (the others ask them at start), then everything else at once:
    // replicas of one service race for the migration advisory lock, so they migrate once.
    alive();
    await Promise.all([repo.start(), identity.start()]);
    alive();
    // Four at a time: a dozen bundles booting at once on a small machine time out each other.
    const rest = processes.filter((p) => p !== repo && p !== identity);
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let p = rest.shift(); p; p = rest.shift()) {
          alive();
          await p.start();
        }
      }),
    );
    alive();

    return {
      gateways,
      urls: gateways.map((g) => `http://${g.address}`) as [string, string],
      replicas: { gateway: gateways, ciWorker: ciWorkers, hook: hooks, mirror: mirrors, collab: collabs },
      ciApi,
      ciArtifacts,
      all: processes,
      deadlineMs,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitForPort(port: number, timeoutMs: number, failed: () => Error | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const err = failed();
    if (err) throw err;
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: "127.0.0.1", port }, () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
