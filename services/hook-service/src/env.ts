import { envAddress, envBoolean, envInt, parseEnv, z } from "@quarry/env";

/** hook-service configuration; the only module that reads process.env. */
export const hookEnvShape = {
  DATABASE_URL: z.string().url(),
  /** NATS JetStream; unset = in-process bus (only useful inside the one-process launcher). */
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50055"),
  /** identity-service: group ancestry of projects (group hooks). */
  IDENTITY_SERVICE_ADDRESS: envAddress("127.0.0.1:50051"),
  /** repo-service: sample commits for test deliveries. */
  REPO_SERVICE_ADDRESS: envAddress("127.0.0.1:50052"),
  /** collab-service: participants and @mentions of notification e-mails. */
  COLLAB_SERVICE_ADDRESS: envAddress("127.0.0.1:50056"),
  GRPC_DEADLINE_MS: envInt(10_000),
  /** Secret that hook tokens, custom header values and URL variables are encrypted with (at least 32 characters). */
  QUARRY_HOOK_ENCRYPTION_KEY: z.string().min(32),
  /** Let webhooks reach loopback and private-network addresses. */
  QUARRY_ALLOW_LOCAL_REQUESTS: envBoolean(false),
  /** The instance's external URL, sent as X-Service-Instance. */
  QUARRY_EXTERNAL_URL: z.string().url().default("http://localhost:8080"),
  /** Per-request webhook timeout (GitLab: 10 s). */
  QUARRY_HOOK_TIMEOUT_MS: envInt(10_000),
  /** Attempts per delivery, the first included (network errors, timeouts, 5xx are retried). */
  QUARRY_HOOK_MAX_ATTEMPTS: envInt(4),
  /** Delay before the first retry; doubles with each further one. */
  QUARRY_HOOK_RETRY_BASE_MS: envInt(10_000),
  /** SMTP server of notification e-mails, e.g. smtp://user:pass@mail:587 or smtps://…; unset = no e-mails. */
  QUARRY_SMTP_URL: z.string().url().optional(),
  /** From: of notification e-mails; default gitlab@<host of QUARRY_EXTERNAL_URL>. */
  QUARRY_EMAIL_FROM: z.string().optional(),
  LOG_LEVEL: z.string().default("info"),
};

export type HookEnv = ReturnType<typeof loadHookEnv>;

export function loadHookEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(hookEnvShape, source);
}
