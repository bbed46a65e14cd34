import { envInt, envPort, minioShape, parseEnv, z } from "@quarry/env";

/** Embedded-mode configuration; the only module that reads process.env. */
export const standaloneEnvShape = {
  PORT: envPort(8080),
  HOST: z.string().default("0.0.0.0"),
  /** Where everything lives: PostgreSQL data, repositories, objects. */
  QUARRY_DATA_DIR: z.string().default("./data"),
  QUARRY_EXTERNAL_URL: z.string().url().optional(),
  /** Token for root on first start; generated and printed once when unset. */
  QUARRY_ROOT_TOKEN: z.string().min(20).optional(),
  QUARRY_ROOT_PASSWORD: z.string().min(8).optional(),
  QUARRY_ROOT_EMAIL: z.string().email().default("admin@example.com"),
  /** Use this PostgreSQL server instead of the embedded one (one database per service is created). */
  DATABASE_URL: z.string().url().optional(),
  /** Use NATS JetStream instead of the in-process bus. */
  NATS_URL: z.string().optional(),
  QUARRY_ARTIFACTS_BUCKET: z.string().default("artifacts"),
  /** The bucket avatars are kept in (MinIO/S3, or a directory under <data>/objects). */
  QUARRY_UPLOADS_BUCKET: z.string().default("uploads"),
  GRPC_DEADLINE_MS: envInt(10_000),
  AUTH_CACHE_TTL_MS: envInt(10_000),
  /** Who may read GET /metrics: comma-separated CIDRs (GitLab's monitoring allowlist); default loopback and private ranges. */
  QUARRY_METRICS_ALLOWED_CIDRS: z.string().optional(),
  QUARRY_MAX_BODY_BYTES: envInt(64 * 1024 * 1024),
  /** Pins the largest Markdown upload in bytes; unset: the max_attachment_size application setting (100 MB by default). */
  QUARRY_MAX_ATTACHMENT_SIZE: z.coerce.number().int().positive().optional(),
  /** Several repository storages, `name=/path,…` (one named `default`); unset: `default` at <data>/repositories. */
  QUARRY_STORAGES: z.string().optional(),
  /** Placement weights of new repositories, `default=100,fast=50` (GitLab's repository_storages_weighted); unset: default 100, others 0. */
  QUARRY_STORAGE_WEIGHTS: z.string().optional(),
  /** Pins GitLab's default_branch_protection (0 none, 1 developers push, 2 full, 3 developers merge, 4 full after the first push); unset: the application setting (2). */
  QUARRY_DEFAULT_BRANCH_PROTECTION: z.coerce.number().int().min(0).max(4).optional(),
  /** repo-service's long-lived `git cat-file` processes; 0 = one process per read. */
  GIT_CATFILE_POOL_SIZE: envInt(64),
  /** The built-in shell runner: on unless "0" or "false". */
  QUARRY_RUNNER: z
    .string()
    .default("1")
    .transform((v) => !["0", "false"].includes(v.toLowerCase())),
  /** The gateway and repo-service in worker threads of their own (both cores): on unless "0" or "false". */
  QUARRY_THREADS: z
    .string()
    .default("1")
    .transform((v) => !["0", "false"].includes(v.toLowerCase())),
  /** Instance runner registration token for the legacy `POST /api/v4/runners`; unset = closed. */
  QUARRY_RUNNER_REGISTRATION_TOKEN: z.string().default(""),
  /** Serve artifact downloads as redirects to presigned URLs (MinIO/S3 only). */
  QUARRY_ARTIFACTS_DIRECT_DOWNLOAD: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** Secret for the credentials identity- (two-factor), hook-, mirror- and ci-service store (≥ 32 characters); unset = generated into <data>/encryption.key. */
  QUARRY_ENCRYPTION_KEY: z.string().min(32).optional(),
  /** Comma-separated DNS servers ("host" or "host:port") for verified-domain TXT look-ups; unset = the system's. */
  QUARRY_DNS_SERVERS: z.string().optional(),
  /** Let webhooks and push mirrors reach loopback and private-network addresses. */
  QUARRY_ALLOW_LOCAL_REQUESTS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** SMTP server of notification e-mails, e.g. smtp://user:pass@mail:587; unset = no e-mails. */
  QUARRY_SMTP_URL: z.string().url().optional(),
  /** From: of notification e-mails; default gitlab@<host of the external URL>. */
  QUARRY_EMAIL_FROM: z.string().optional(),
  /** Pins GitLab's notes_create_limit (notes one user may create per minute; 0 = unlimited); unset: the application setting (300). */
  QUARRY_NOTES_CREATE_LIMIT: z.coerce.number().int().min(0).optional(),
  LOG_LEVEL: z.string().default("info"),
  /** Git over SSH: the port repo-service's SSH server listens on (default 2222); 0 = off. */
  QUARRY_SSH_PORT: z.coerce.number().int().min(0).max(65535).default(2222),
  /** The SSH host in ssh_url_to_repo (default: the external URL's host); the port shown is QUARRY_SSH_PORT. */
  QUARRY_SSH_HOST: z.string().optional(),
  ...minioShape,
};

export type StandaloneEnv = ReturnType<typeof loadStandaloneEnv>;

export function loadStandaloneEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(standaloneEnvShape, source);
}
