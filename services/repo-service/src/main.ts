import { runServiceProcess } from "@quarry/service";
import { loadRepoEnv } from "./env.ts";
import { startRepoService } from "./server.ts";

// Process entry for the distributed mode: one repo-service per process.
await runServiceProcess("repo-service", loadRepoEnv, ({ env, log, bus }) =>
  startRepoService({
    databaseUrl: env.DATABASE_URL,
    grpcAddress: env.GRPC_ADDRESS,
    storageRoot: env.QUARRY_STORAGE_ROOT,
    catFilePoolSize: env.GIT_CATFILE_POOL_SIZE,
    defaultBranchProtection: env.QUARRY_DEFAULT_BRANCH_PROTECTION,
    bus,
    log,
  }),
);
