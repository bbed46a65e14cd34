import { envAddress, envInt, envPort, parseEnv, z } from "@quarry/env";

/** Gateway configuration; the only module that reads process.env. */
export const gatewayEnvShape = {
  PORT: envPort(8080),
  HOST: z.string().default("0.0.0.0"),
  /** Base URL clients use to reach this server (web_url, clone URLs, Link headers). */
  QUARRY_EXTERNAL_URL: z.string().url().optional(),
  /** Git over SSH's host in ssh_url_to_repo (default: the external URL's host). */
  QUARRY_SSH_HOST: z.string().optional(),
  /** Git over SSH's port in ssh_url_to_repo (default 22; `ssh://git@host:port/…` when not 22). */
  QUARRY_SSH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  IDENTITY_SERVICE_ADDRESS: envAddress("127.0.0.1:50051"),
  REPO_SERVICE_ADDRESS: envAddress("127.0.0.1:50052"),
  CI_SERVICE_ADDRESS: envAddress("127.0.0.1:50053"),
  /** ci-service's artifacts role (QUARRY_CI_ROLE=artifacts) for artifact uploads and downloads; unset: CI_SERVICE_ADDRESS. */
  CI_ARTIFACTS_ADDRESS: envAddress().optional(),
  MIRROR_SERVICE_ADDRESS: envAddress("127.0.0.1:50054"),
  HOOK_SERVICE_ADDRESS: envAddress("127.0.0.1:50055"),
  COLLAB_SERVICE_ADDRESS: envAddress("127.0.0.1:50056"),
  ERROR_TRACKING_SERVICE_ADDRESS: envAddress("127.0.0.1:50057"),
  ACTIVITY_SERVICE_ADDRESS: envAddress("127.0.0.1:50058"),
  NATS_URL: z.string().optional(),
  /** Per-call deadline towards the services: past it the client gets 503. */
  GRPC_DEADLINE_MS: envInt(10_000),
  /** How long an authenticated token is trusted without asking identity-service again. */
  AUTH_CACHE_TTL_MS: envInt(10_000),
  /** Who may read GET /metrics: comma-separated CIDRs (GitLab's monitoring allowlist); default loopback and private ranges. */
  QUARRY_METRICS_ALLOWED_CIDRS: z.string().optional(),
  /** Largest accepted request body (JSON, form or multipart). */
  QUARRY_MAX_BODY_BYTES: envInt(64 * 1024 * 1024),
  /** Pins the largest Markdown upload in bytes (POST /projects/:id/uploads, wiki attachments); unset: the max_attachment_size application setting (100 MB by default). */
  QUARRY_MAX_ATTACHMENT_SIZE: z.coerce.number().int().positive().optional(),
  /** How long POST /api/v4/jobs/request waits for a job before answering 204 (long polling). */
  QUARRY_JOB_REQUEST_WAIT_MS: envInt(10_000),
  LOG_LEVEL: z.string().default("info"),
};

export type GatewayEnv = ReturnType<typeof loadGatewayEnv>;

export function loadGatewayEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(gatewayEnvShape, source);
}
