import { runServiceProcess } from "@quarry/service";
import { loadHookEnv } from "./env.ts";
import { startHookService } from "./server.ts";

// Process entry for the distributed mode: one hook-service per process.
await runServiceProcess("hook-service", loadHookEnv, ({ env, log, bus }) =>
  startHookService({
    databaseUrl: env.DATABASE_URL,
    grpcAddress: env.GRPC_ADDRESS,
    identityServiceAddress: env.IDENTITY_SERVICE_ADDRESS,
    repoServiceAddress: env.REPO_SERVICE_ADDRESS,
    collabServiceAddress: env.COLLAB_SERVICE_ADDRESS,
    deadlineMs: env.GRPC_DEADLINE_MS,
    encryptionKey: env.QUARRY_HOOK_ENCRYPTION_KEY,
    allowLocalRequests: env.QUARRY_ALLOW_LOCAL_REQUESTS,
    settings: {
      instanceUrl: env.QUARRY_EXTERNAL_URL.replace(/\/+$/, ""),
      timeoutMs: env.QUARRY_HOOK_TIMEOUT_MS,
      maxAttempts: env.QUARRY_HOOK_MAX_ATTEMPTS,
      retryBaseMs: env.QUARRY_HOOK_RETRY_BASE_MS,
    },
    smtpUrl: env.QUARRY_SMTP_URL,
    emailFrom: env.QUARRY_EMAIL_FROM,
    bus,
    log,
  }),
);
