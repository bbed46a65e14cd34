import { stopOnSignals } from "@quarry/grpc";
import { createBus } from "@quarry/bus";
import { createLogger } from "@quarry/logger";
import { loadHookEnv } from "./env.ts";
import { startHookService } from "./server.ts";

// Process entry for the distributed mode: one hook-service per process.
const env = loadHookEnv();
const log = createLogger("hook-service", env.LOG_LEVEL);
const bus = await createBus({ natsUrl: env.NATS_URL, name: "hook-service", log });
const service = await startHookService({
  databaseUrl: env.DATABASE_URL,
  grpcAddress: env.GRPC_ADDRESS,
  identityAddress: env.IDENTITY_SERVICE_ADDRESS,
  repoAddress: env.REPO_SERVICE_ADDRESS,
  deadlineMs: env.GRPC_DEADLINE_MS,
  encryptionKey: env.QUARRY_HOOK_ENCRYPTION_KEY,
  allowLocalRequests: env.QUARRY_ALLOW_LOCAL_REQUESTS,
  settings: {
    instanceUrl: env.QUARRY_EXTERNAL_URL.replace(/\/+$/, ""),
    timeoutMs: env.QUARRY_HOOK_TIMEOUT_MS,
    maxAttempts: env.QUARRY_HOOK_MAX_ATTEMPTS,
    retryBaseMs: env.QUARRY_HOOK_RETRY_BASE_MS,
  },
  bus,
  log,
});

stopOnSignals(log, () => service.stop(), () => bus.close());
