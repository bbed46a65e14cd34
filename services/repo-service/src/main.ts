import { stopOnSignals } from "@quarry/grpc";
import { createBus } from "@quarry/bus";
import { createLogger } from "@quarry/logger";
import { loadRepoEnv } from "./env.ts";
import { startRepoService } from "./server.ts";

// Process entry for the distributed mode: one repo-service per process.
const env = loadRepoEnv();
const log = createLogger("repo-service", env.LOG_LEVEL);
const bus = await createBus({ natsUrl: env.NATS_URL, name: "repo-service", log });
const service = await startRepoService({
  databaseUrl: env.DATABASE_URL,
  grpcAddress: env.GRPC_ADDRESS,
  storageRoot: env.QUARRY_STORAGE_ROOT,
  catFilePoolSize: env.GIT_CATFILE_POOL_SIZE,
  defaultBranchProtection: env.QUARRY_DEFAULT_BRANCH_PROTECTION,
  bus,
  log,
});

stopOnSignals(log, () => service.stop(), () => bus.close());
