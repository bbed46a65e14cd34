import { stopOnSignals } from "@quarry/grpc";
import { createBus } from "@quarry/bus";
import { createLogger } from "@quarry/logger";
import { loadMirrorEnv } from "./env.ts";
import { startMirrorService } from "./server.ts";

// Process entry for the distributed mode: one mirror-service per process.
const env = loadMirrorEnv();
const log = createLogger("mirror-service", env.LOG_LEVEL);
const bus = await createBus({ natsUrl: env.NATS_URL, name: "mirror-service", log });
const service = await startMirrorService({
  databaseUrl: env.DATABASE_URL,
  grpcAddress: env.GRPC_ADDRESS,
  repoAddress: env.REPO_SERVICE_ADDRESS,
  deadlineMs: env.GRPC_DEADLINE_MS,
  encryptionKey: env.QUARRY_MIRROR_ENCRYPTION_KEY,
  allowLocalRequests: env.QUARRY_ALLOW_LOCAL_REQUESTS,
  bus,
  log,
});

stopOnSignals(log, () => service.stop(), () => bus.close());
