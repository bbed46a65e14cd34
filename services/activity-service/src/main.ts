import { runServiceProcess } from "@quarry/service";
import { loadActivityEnv } from "./env.ts";
import { startActivityService } from "./server.ts";

// Process entry for the distributed mode: one activity-service per process.
await runServiceProcess("activity-service", loadActivityEnv, ({ env, log, bus }) =>
  startActivityService({
    databaseUrl: env.DATABASE_URL,
    grpcAddress: env.GRPC_ADDRESS,
    identityServiceAddress: env.IDENTITY_SERVICE_ADDRESS,
    deadlineMs: env.GRPC_DEADLINE_MS,
    bus,
    log,
  }),
);
