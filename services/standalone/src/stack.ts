import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createBus, type EventBus } from "@quarry/bus";
import { createClient } from "@quarry/grpc";
import { identityV1 } from "@quarry/proto";
import { databaseUrlFor, ensureDatabase, startEmbeddedPostgres } from "@quarry/database";
import { startCiService, type CiSettings } from "@quarry/ci-service";
import { startCollabService } from "@quarry/collab-service";
import { QUARRY_REVISION, QUARRY_VERSION, startGateway } from "@quarry/gateway";
import { startHookService, type HookServiceOptions } from "@quarry/hook-service";
import { startIdentityService } from "@quarry/identity-service";
import type { Logger } from "@quarry/logger";
import { startErrorTrackingService } from "@quarry/error-tracking-service";
import { startActivityService } from "@quarry/activity-service";
import { startMirrorService } from "@quarry/mirror-service";
import { createObjectStore, type ObjectStore } from "@quarry/object-store";
import { startGitSshServer, startRepoService, type StorageConfig, type StorageMoveHooks } from "@quarry/repo-service";
import { startBuiltinRunner } from "./builtin-runner.ts";

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
  /** repo-service's storage-move test seam (tests only). */
  storageMoveHooks?: StorageMoveHooks;
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
  stop(): Promise<void>;
}

const LOOPBACK = "127.0.0.1:0";

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

    const repo = await startRepoService({
      databaseUrl: await dbUrl("repo"),
      grpcAddress: LOOPBACK,
      storageRoot: path.join(o.dataDir, "repositories"),
      storages:
        o.storages?.length && !o.storages.some((c) => c.name === "default")
          ? [{ name: "default", root: path.join(o.dataDir, "repositories"), weight: 100 }, ...o.storages]
          : o.storages,
      storageMoveHooks: o.storageMoveHooks,
      catFilePoolSize: o.catFilePoolSize,
      defaultBranchProtection: o.defaultBranchProtection,
      bus,
      log: log("repo-service"),
    });
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
      rootEmail: o.rootEmail ?? "admin@example.com",
      rootPassword: o.rootPassword,
      avatarStore: o.uploadsStore ?? createObjectStore({ kind: "local", root: path.join(o.dataDir, "objects"), bucket: o.uploadsBucket ?? "uploads" }),
      encryptionKey,
      dnsServers: o.dnsServers,
    });
    stops.push(() => identity.stop());
    const root = await identity.ensureRoot(o.rootToken);
    // repo-service started first: its instance settings (default_branch_protection) come from identity now.
    const settingsSource = createClient(identityV1.IdentityService, identity.address, { deadlineMs });
    stops.push(async () => settingsSource.close());
    await repo.deps.applicationSettings.fetchFrom(settingsSource);
    const ci = await startCiService({
      databaseUrl: await dbUrl("ci"),
      grpcAddress: LOOPBACK,
      bus,
      log: log("ci-service"),
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
    });
    stops.push(() => errorTracking.stop());
    const activity = await startActivityService({
      databaseUrl: await dbUrl("activity"),
      grpcAddress: LOOPBACK,
      identityServiceAddress: identity.address,
      deadlineMs,
      bus,
      log: log("activity-service"),
    });
    stops.push(() => activity.stop());
    const gateway = await startGateway({
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
      maxBodyBytes: o.maxBodyBytes ?? 64 * 1024 * 1024,
      maxAttachmentBytes: o.maxAttachmentBytes,
      jobRequestWaitMs: o.jobRequestWaitMs,
      bus,
      log: log("gateway"),
      version: QUARRY_VERSION,
      revision: QUARRY_REVISION,
    });
    stops.push(() => gateway.stop());
    // X-Service-Instance: known once the gateway listens.
    hook.deps.settings.instanceUrl = gateway.url;
    let sshPort: number | undefined;
    if (o.ssh) {
      // After the gateway: push events carry its external URL; the gateway then shows the bound port.
      const addresses: { base: string; sshHost?: string; sshPort?: number } = { base: gateway.url, sshHost: o.ssh.sshHost };
      const ssh = await startGitSshServer({
        deps: repo.deps,
        identityServiceAddress: identity.address,
        deadlineMs,
        host: o.ssh.host,
        port: o.ssh.port,
        hostKeyPath: path.join(o.dataDir, "ssh_host_ed25519_key"),
        addresses,
        log: log("repo-service"),
      });
      stops.push(() => ssh.stop());
      sshPort = ssh.port;
      addresses.sshPort = ssh.port;
      gateway.deps.config.sshPort = ssh.port;
      gateway.deps.config.sshHost = o.ssh.sshHost ?? "";
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
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
