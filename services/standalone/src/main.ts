import { stopOnSignals } from "@quarry/grpc";
import path from "node:path";
import { createLogger } from "@quarry/logger";
import { minioStoreFromEnv } from "@quarry/object-store";
import { parseStorageConfig } from "@quarry/repo-service";
import { loadStandaloneEnv } from "./env.ts";
import { startStack } from "./stack.ts";

// `pnpm start`: the whole of Quarry in one process.
const env = loadStandaloneEnv();
const log = createLogger("quarry", env.LOG_LEVEL);
const dataDir = path.resolve(env.QUARRY_DATA_DIR);
const stack = await startStack({
  dataDir,
  host: env.HOST,
  port: env.PORT,
  externalUrl: env.QUARRY_EXTERNAL_URL,
  databaseServerUrl: env.DATABASE_URL,
  natsUrl: env.NATS_URL,
  catFilePoolSize: env.GIT_CATFILE_POOL_SIZE,
  storages: parseStorageConfig(env.QUARRY_STORAGES, env.QUARRY_STORAGE_WEIGHTS, path.join(dataDir, "repositories")),
  defaultBranchProtection: env.QUARRY_DEFAULT_BRANCH_PROTECTION,
  objectStore: minioStoreFromEnv(env, env.QUARRY_ARTIFACTS_BUCKET),
  artifactsBucket: env.QUARRY_ARTIFACTS_BUCKET,
  uploadsStore: minioStoreFromEnv(env, env.QUARRY_UPLOADS_BUCKET),
  uploadsBucket: env.QUARRY_UPLOADS_BUCKET,
  rootToken: env.QUARRY_ROOT_TOKEN,
  rootPassword: env.QUARRY_ROOT_PASSWORD,
  rootEmail: env.QUARRY_ROOT_EMAIL,
  deadlineMs: env.GRPC_DEADLINE_MS,
  authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
  metricsAllowedCidrs: env.QUARRY_METRICS_ALLOWED_CIDRS,
  maxBodyBytes: env.QUARRY_MAX_BODY_BYTES,
  maxAttachmentBytes: env.QUARRY_MAX_ATTACHMENT_SIZE,
  runner: env.QUARRY_RUNNER,
  encryptionKey: env.QUARRY_ENCRYPTION_KEY,
  dnsServers: env.QUARRY_DNS_SERVERS?.split(",")
    .map((s) => s.trim())
    .filter(Boolean),
  allowLocalRequests: env.QUARRY_ALLOW_LOCAL_REQUESTS,
  smtpUrl: env.QUARRY_SMTP_URL,
  emailFrom: env.QUARRY_EMAIL_FROM,
  notesCreateLimit: env.QUARRY_NOTES_CREATE_LIMIT,
  ssh: env.QUARRY_SSH_PORT ? { port: env.QUARRY_SSH_PORT, host: env.HOST, sshHost: env.QUARRY_SSH_HOST } : undefined,
  ciSettings: { runnerRegistrationToken: env.QUARRY_RUNNER_REGISTRATION_TOKEN, artifactsDirectDownload: env.QUARRY_ARTIFACTS_DIRECT_DOWNLOAD },
  threads: env.QUARRY_THREADS,
  // A crashed service thread ends the process, as a crashed service process would end.
  onThreadExit: (err) => {
    log.fatal({ err }, "service thread ended; stopping");
    void stack.stop().finally(() => process.exit(1));
  },
  log,
});

const lines = [``, `Quarry is running: ${stack.url}/api/v4`, `Data directory: ${dataDir}`];
if (stack.generatedRootToken) {
  lines.push(`Administrator: root   token (shown only this once): ${stack.generatedRootToken}`);
} else {
  lines.push(`Administrator: root   (token: QUARRY_ROOT_TOKEN, or the one printed on first start)`);
}
if (stack.sshPort) lines.push(`Git over SSH on port ${stack.sshPort} (host key in ${path.join(dataDir, "ssh_host_ed25519_key")})`);
lines.push(`Try: curl -H "PRIVATE-TOKEN: <token>" ${stack.url}/api/v4/user`, ``);
process.stdout.write(lines.join("\n") + "\n");

stopOnSignals(log, () => stack.stop());
