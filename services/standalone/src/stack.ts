import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createBus, type EventBus } from "@quarry/bus";
import { databaseUrlFor, ensureDatabase, startEmbeddedPostgres } from "@quarry/database";
import { startCiService, type CiSettings } from "@quarry/ci-service";
import { startCollabService } from "@quarry/collab-service";
import { QUARRY_REVISION, QUARRY_VERSION, startGateway } from "@quarry/gateway";
import { startHookService, type HookServiceOptions } from "@quarry/hook-service";
import { startIdentityService } from "@quarry/identity-service";
import { createMetrics, type Metrics, type MetricsJson } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { startErrorTrackingService } from "@quarry/error-tracking-service";
import { startActivityService } from "@quarry/activity-service";
import { startMirrorService } from "@quarry/mirror-service";
import { createObjectStore, type ObjectStore } from "@quarry/object-store";
import { startRepoService, type StorageConfig, type StorageMoveHooks } from "@quarry/repo-service";
import { startBuiltinRunner } from "./builtin-runner.ts";
import { repoControl } from "./repo-control.ts";
import { startServiceThread } from "./threads.ts";

export interface StackOptions {
  dataDir: string;
  host: string;
  port: number;
  externalUrl?: string;
  /** A PostgreSQL server URL; when absent an embedded server runs in <dataDir>/postgres. */
  databaseServerUrl?: string;
  /** Database names are <prefix>_identity, <prefix>_repo, … */
  databasePrefix?: string;
  /** NATS JetStream instead of the in-process bus. */
  natsUrl?: string;
  /** A MinIO/S3 store for artifacts instead of <dataDir>/objects. */
  objectStore?: ObjectStore;
  artifactsBucket?: string;
  /** A MinIO/S3 store for avatars instead of <dataDir>/objects/<uploadsBucket>. */
  uploadsStore?: ObjectStore;
  uploadsBucket?: string;
  rootToken?: string;
  rootPassword?: string;
  rootEmail?: string;
  deadlineMs?: number;
  authCacheTtlMs?: number;
  /** Who may read the gateway's GET /metrics (CIDRs, comma-separated); default loopback and private ranges. */
  metricsAllowedCidrs?: string;
  maxBodyBytes?: number;
  /** Pins the largest Markdown upload, bytes; unset: the max_attachment_size application setting. */
  maxAttachmentBytes?: number;
  /** repo-service's `git cat-file` pool size; 0 = one process per read. */
  catFilePoolSize?: number;
  /** How long POST /jobs/request waits for a job (gateway long polling), ms. */
  jobRequestWaitMs?: number;
  /** ci-service tunables (watchdog timeouts, artifact expiry, registration token, direct downloads). */
  ciSettings?: Partial<CiSettings>;
  /** Start the built-in shell runner (default true; QUARRY_RUNNER=0 turns it off). */
  runner?: boolean;
  /** The built-in runner's pause after an empty job request, ms. */
  runnerPollIntervalMs?: number;
  /** Pins GitLab's default_branch_protection for new projects' default branches (0–4); unset: the application setting. */
  defaultBranchProtection?: number;
  /**
   * Secret that identity- (two-factor secrets), hook-, mirror- and ci-service encrypt stored credentials with (at least 32
   * characters); when absent one is generated once and kept in <dataDir>/encryption.key.
   */
  encryptionKey?: string;
  /** DNS servers for verified-domain look-ups ("host:port"); absent = the system's (QUARRY_DNS_SERVERS). */
  dnsServers?: string[];
  /** Let webhooks and mirrors reach loopback and private addresses (default false). */
  allowLocalRequests?: boolean;
  /** hook-service delivery tunables (timeout, retries, rate limit); the instance URL is the gateway's. */
  hookSettings?: HookServiceOptions["settings"];
  /** SMTP server of notification e-mails (QUARRY_SMTP_URL); unset = no e-mails. */
  smtpUrl?: string;
  /** From: of notification e-mails (QUARRY_EMAIL_FROM); default gitlab@<host of the external URL>. */
  emailFrom?: string;
  /** Pins collab-service's notes per user and minute (0 = unlimited); unset: the notes_create_limit application setting. */
  notesCreateLimit?: number;
  /**
   * Git over SSH (repo-service's SSH server): the port to listen on (0: any free port) and the
   * address to listen on (default 0.0.0.0); `sshHost` is the host ssh_url_to_repo shows (default
   * the external URL's). Absent: no SSH server. The host key is <dataDir>/ssh_host_ed25519_key.
   */
  ssh?: { port: number; host?: string; sshHost?: string };
  /**
   * Repository storages (QUARRY_STORAGES / QUARRY_STORAGE_WEIGHTS): name, root, weight. Without
   * one named `default`, `default` is <dataDir>/repositories with weight 100 (also when absent).
   */
  storages?: StorageConfig[];
  /** repo-service's storage-move test seam (tests only; not with `threads`). */
  storageMoveHooks?: StorageMoveHooks;
  /**
   * Run the gateway and repo-service in worker threads of their own (QUARRY_THREADS, `pnpm start`'s
   * default), so the hot path gets both cores; otherwise every service shares this thread.
   */
  threads?: boolean;
  /** A service thread ended without being stopped; default: log it (the CLI exits). */
  onThreadExit?: (err: Error) => void;
  log: Logger;
}

export interface RunningStack {
  url: string;
  /** root's token when this start created root with a generated token (shown once); otherwise "". */
  generatedRootToken: string;
  /** The PostgreSQL server the databases (`<prefix>_<service>`) live on: the given one or the embedded one. */
  databaseServerUrl: string;
  addresses: Record<"identity" | "repo" | "ci" | "mirror" | "hook" | "collab" | "errorTracking" | "activity", string>;
  bus: EventBus;
  /** One pass of collab-service's issue_due scheduler as of `at` (announces open issues due the next day; tests). */
  issueDueTick(at: Date): Promise<number>;
  /** The port git over SSH answers on, when it runs. */
  sshPort?: number;
  /** The worker threads' ids of the gateway and repo-service (0: this thread). */
  threadIds: { gateway: number; repo: number };
  stop(): Promise<void>;
}

const LOOPBACK = "127.0.0.1:0";

/** repo-service as the stack drives it, in this thread or its own. */
interface RepoHandle {
  address: string;
  threadId: number;
  /** Instance settings from identity-service (repo-service starts before it). */
  fetchSettings(identityAddress: string): Promise<void>;
  /** Git over SSH, served by repo-service's SSH server. */
  startSsh(o: { identityAddress: string; host?: string; port: number; hostKeyPath: string; base: string; sshHost?: string }): Promise<{ port: number }>;
  /** Its metrics registry as JSON (asked of its thread when it has one). */
  metrics(): Promise<MetricsJson>;
  stop(): Promise<void>;
}

/** The gateway as the stack drives it, in this thread or its own. */
interface GatewayHandle {
  url: string;
  threadId: number;
  port: number;
  /** Where git over SSH answers, for ssh_url_to_repo. */
  setSsh(sshPort: number, sshHost: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The embedded mode's encryption secret: generated on first start, kept readable by the owner only.
 * Written to a scratch file and linked into place, so a kill mid-write cannot leave an empty key
 * (which no later start would accept); an empty file from such a kill counts as no key, since
 * nothing can have been encrypted with it.
 */
export function loadOrCreateEncryptionKey(dataDir: string): string {
  const file = path.join(dataDir, "encryption.key");
  try {
    const key = fs.readFileSync(file, "utf8").trim();
    if (key) return key;
    fs.rmSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const key = randomBytes(32).toString("base64url");
  const scratch = `${file}.${process.pid}`;
  fs.writeFileSync(scratch, key + "\n", { mode: 0o600 });
  try {
    // link(2) fails if the key exists: a concurrent first start keeps its own.
    fs.linkSync(scratch, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return fs.readFileSync(file, "utf8").trim();
  } finally {
    fs.rmSync(scratch, { force: true });
  }
  return key;
}

/**
 * Starts all six services in this process, each on its own loopback gRPC port, in dependency
 * order: storage first, then the event consumers, then the services that publish, the gateway last.
 */
export async function startStack(o: StackOptions): Promise<RunningStack> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) {
      await stop().catch((err) => o.log.warn({ err }, "stop failed"));
    }
  };
  try {
    fs.mkdirSync(o.dataDir, { recursive: true });
    let serverUrl = o.databaseServerUrl;
    if (!serverUrl) {
      const pg = await startEmbeddedPostgres({
        dataDir: path.join(o.dataDir, "postgres"),
        log: (m) => o.log.debug(m),
        // What a start after a crash cleaned up (a server left running, stale files) is worth seeing.
        warn: (m) => o.log.warn(m),
      });
      stops.push(() => pg.stop());
      serverUrl = pg.url;
    }
    const prefix = o.databasePrefix ?? "quarry";
    const dbUrl = async (service: string) => {
      const name = `${prefix}_${service}`;
      await ensureDatabase(serverUrl!, name);
      return databaseUrlFor(serverUrl!, name);
    };
    const bus = await createBus({ natsUrl: o.natsUrl, name: "quarry", log: o.log });
    stops.push(() => bus.close());
    const deadlineMs = o.deadlineMs ?? 10_000;
    const log = (name: string) => o.log.child({ service: name });
    // Each service its own registry, as its own process would have (the gateway's /metrics shows
    // them all, by their service label); this thread's process metrics under "standalone".
    const registries: Metrics[] = [createMetrics("standalone", { log: o.log })];
    const metricsOf = (name: string) => {
      const m = createMetrics(name, { defaultMetrics: false, log: o.log });
      registries.push(m);
      return m;
    };

    const onThreadExit = o.onThreadExit ?? ((err: Error) => o.log.error({ err }, "service thread ended"));
    const logLevel = (o.log as { level?: string }).level ?? "info";
    const repoOptions = {
      databaseUrl: await dbUrl("repo"),
      grpcAddress: LOOPBACK,
      storageRoot: path.join(o.dataDir, "repositories"),
      storages:
        o.storages?.length && !o.storages.some((c) => c.name === "default")
          ? [{ name: "default", root: path.join(o.dataDir, "repositories"), weight: 100 }, ...o.storages]
          : o.storages,
      catFilePoolSize: o.catFilePoolSize,
      defaultBranchProtection: o.defaultBranchProtection,
    };
    if (o.threads && o.storageMoveHooks) throw new Error("storageMoveHooks (a test seam) cannot reach a repo-service thread");
    const repo: RepoHandle = o.threads
      ? await (async () => {
          const thread = await startServiceThread({ kind: "repo", options: repoOptions, logLevel }, bus, o.log, onThreadExit);
          return {
            address: thread.ready.address!,
            threadId: thread.threadId,
            fetchSettings: async (identityAddress: string) => void (await thread.call({ op: "fetchSettings", identityAddress, deadlineMs })),
            startSsh: async (ssh) => (await thread.call({ op: "startSsh", deadlineMs, ...ssh })) as { port: number },
            metrics: async () => (await thread.call({ op: "metrics" })) as MetricsJson,
            stop: () => thread.stop(),
          };
        })()
      : await (async () => {
          const repoMetrics = createMetrics("repo-service", { defaultMetrics: false, log: o.log });
          const inThread = await startRepoService({
            ...repoOptions,
            storageMoveHooks: o.storageMoveHooks,
            bus,
            log: log("repo-service"),
            metrics: repoMetrics,
          });
          const control = repoControl(inThread, log("repo-service"));
          return {
            address: inThread.address,
            threadId: 0,
            fetchSettings: (identityAddress: string) => control.fetchSettings(identityAddress, deadlineMs),
            startSsh: async (ssh) => {
              const server = await control.startSsh({ ...ssh, deadlineMs });
              stops.push(() => server.stop());
              return { port: server.port };
            },
            metrics: () => repoMetrics.json(),
            stop: () => inThread.stop(),
          };
        })();
    stops.push(() => repo.stop());
    const objectStore = o.objectStore ?? createObjectStore({ kind: "local", root: path.join(o.dataDir, "objects"), bucket: o.artifactsBucket ?? "artifacts" });
    await objectStore.ensureBucket();
    // One key seals the secrets of identity (two-factor), ci, hook and mirror services.
    const encryptionKey = o.encryptionKey ?? loadOrCreateEncryptionKey(o.dataDir);
    const identity = await startIdentityService({
      databaseUrl: await dbUrl("identity"),
      grpcAddress: LOOPBACK,
      repoServiceAddress: repo.address,
      deadlineMs,
      bus,
      log: log("identity-service"),
      metrics: metricsOf("identity-service"),
      rootEmail: o.rootEmail ?? "admin@example.com",
      rootPassword: o.rootPassword,
      avatarStore: o.uploadsStore ?? createObjectStore({ kind: "local", root: path.join(o.dataDir, "objects"), bucket: o.uploadsBucket ?? "uploads" }),
      encryptionKey,
      dnsServers: o.dnsServers,
    });
    stops.push(() => identity.stop());
    const root = await identity.ensureRoot(o.rootToken);
    // repo-service started first: its instance settings (default_branch_protection) come from identity now.
    await repo.fetchSettings(identity.address);
    const ci = await startCiService({
      databaseUrl: await dbUrl("ci"),
      grpcAddress: LOOPBACK,
      bus,
      log: log("ci-service"),
      metrics: metricsOf("ci-service"),
      objectStore,
      repoServiceAddress: repo.address,
      identityServiceAddress: identity.address,
      deadlineMs,
      settings: o.ciSettings,
      encryptionKey,
    });
    stops.push(() => ci.stop());
    // The event consumers start after the publishers: durables replay what they missed, and both
    // need the addresses of services started above.
    const allowLocalRequests = o.allowLocalRequests ?? false;
    const hook = await startHookService({
      databaseUrl: await dbUrl("hook"),
      grpcAddress: LOOPBACK,
      identityServiceAddress: identity.address,
      repoServiceAddress: repo.address,
      deadlineMs,
      encryptionKey,
      allowLocalRequests,
      settings: o.hookSettings,
      smtpUrl: o.smtpUrl,
      emailFrom: o.emailFrom,
      bus,
      log: log("hook-service"),
      metrics: metricsOf("hook-service"),
    });
    stops.push(() => hook.stop());
    const mirror = await startMirrorService({
      databaseUrl: await dbUrl("mirror"),
      grpcAddress: LOOPBACK,
      repoServiceAddress: repo.address,
      identityServiceAddress: identity.address,
      deadlineMs,
      encryptionKey,
      allowLocalRequests,
      bus,
      log: log("mirror-service"),
      metrics: metricsOf("mirror-service"),
    });
    stops.push(() => mirror.stop());
    const collab = await startCollabService({
      databaseUrl: await dbUrl("collab"),
      grpcAddress: LOOPBACK,
      identityServiceAddress: identity.address,
      repoServiceAddress: repo.address,
      deadlineMs,
      bus,
      log: log("collab-service"),
      metrics: metricsOf("collab-service"),
      notesCreateLimit: o.notesCreateLimit,
    });
    stops.push(() => collab.stop());
    // Notification e-mails ask collab-service for participants and @mentions.
    hook.connectCollab(collab.address);
    const errorTracking = await startErrorTrackingService({
      databaseUrl: await dbUrl("error_tracking"),
      grpcAddress: LOOPBACK,
      bus,
      log: log("error-tracking-service"),
      metrics: metricsOf("error-tracking-service"),
    });
    stops.push(() => errorTracking.stop());
    const activity = await startActivityService({
      databaseUrl: await dbUrl("activity"),
      grpcAddress: LOOPBACK,
      identityServiceAddress: identity.address,
      deadlineMs,
      bus,
      log: log("activity-service"),
      metrics: metricsOf("activity-service"),
    });
    stops.push(() => activity.stop());
    const gatewayOptions = {
      host: o.host,
      port: o.port,
      externalUrl: o.externalUrl,
      identityServiceAddress: identity.address,
      repoServiceAddress: repo.address,
      ciServiceAddress: ci.address,
      hookServiceAddress: hook.address,
      mirrorServiceAddress: mirror.address,
      collabServiceAddress: collab.address,
      errorTrackingServiceAddress: errorTracking.address,
      activityServiceAddress: activity.address,
      deadlineMs,
      authCacheTtlMs: o.authCacheTtlMs ?? 10_000,
      metricsAllowedCidrs: o.metricsAllowedCidrs,
      maxBodyBytes: o.maxBodyBytes ?? 64 * 1024 * 1024,
      maxAttachmentBytes: o.maxAttachmentBytes,
      jobRequestWaitMs: o.jobRequestWaitMs,
      version: QUARRY_VERSION,
      revision: QUARRY_REVISION,
    };
    // What the gateway's /metrics shows besides its own registry.
    const metricsSources = async (): Promise<MetricsJson[]> => [...(await Promise.all(registries.map((m) => m.json()))), await repo.metrics()];
    const gateway: GatewayHandle = o.threads
      ? await (async () => {
          const thread = await startServiceThread({ kind: "gateway", options: gatewayOptions, logLevel }, bus, o.log, onThreadExit, metricsSources);
          return {
            url: thread.ready.url!,
            threadId: thread.threadId,
            port: thread.ready.port!,
            setSsh: async (sshPort: number, sshHost: string) => void (await thread.call({ op: "setSsh", sshPort, sshHost })),
            stop: () => thread.stop(),
          };
        })()
      : await (async () => {
          const inThread = await startGateway({ ...gatewayOptions, bus, log: log("gateway"), metricsSources });
          return {
            url: inThread.url,
            threadId: 0,
            port: inThread.port,
            setSsh: async (sshPort: number, sshHost: string) => {
              inThread.deps.config.sshPort = sshPort;
              inThread.deps.config.sshHost = sshHost;
            },
            stop: () => inThread.stop(),
          };
        })();
    stops.push(() => gateway.stop());
    // X-Service-Instance: known once the gateway listens.
    hook.deps.settings.instanceUrl = gateway.url;
    let sshPort: number | undefined;
    if (o.ssh) {
      // After the gateway: push events carry its external URL; the gateway then shows the bound port.
      const ssh = await repo.startSsh({
        identityAddress: identity.address,
        host: o.ssh.host,
        port: o.ssh.port,
        hostKeyPath: path.join(o.dataDir, "ssh_host_ed25519_key"),
        base: gateway.url,
        sshHost: o.ssh.sshHost,
      });
      sshPort = ssh.port;
      await gateway.setSsh(ssh.port, o.ssh.sshHost ?? "");
    }
    if (o.runner ?? true) {
      // Local address: the runner need not go through QUARRY_EXTERNAL_URL.
      const local = `http://${o.host === "0.0.0.0" || o.host === "::" ? "127.0.0.1" : o.host}:${gateway.port}`;
      const runner = await startBuiltinRunner({
        dataDir: o.dataDir,
        ciServiceAddress: ci.address,
        url: local,
        pollIntervalMs: o.runnerPollIntervalMs,
        log: log("runner"),
      });
      stops.push(() => runner.stop());
    }
    return {
      url: gateway.url,
      generatedRootToken: root.token,
      databaseServerUrl: serverUrl,
      addresses: {
        identity: identity.address,
        repo: repo.address,
        ci: ci.address,
        mirror: mirror.address,
        hook: hook.address,
        collab: collab.address,
        errorTracking: errorTracking.address,
        activity: activity.address,
      },
      bus,
      issueDueTick: (at: Date) => collab.issueDue?.tick(at) ?? Promise.resolve(0),
      sshPort,
      threadIds: { gateway: gateway.threadId, repo: repo.threadId },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
