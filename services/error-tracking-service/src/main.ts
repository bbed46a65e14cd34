import { runServiceProcess } from "@quarry/service";
import { loadErrorTrackingEnv } from "./env.ts";
import { startErrorTrackingService } from "./server.ts";

// Process entry for the distributed mode: one error-tracking-service per process.
await runServiceProcess("error-tracking-service", loadErrorTrackingEnv, ({ env, log, bus }) =>
  startErrorTrackingService({
    databaseUrl: env.DATABASE_URL,
    grpcAddress: env.GRPC_ADDRESS,
    bus,
    log,
  }),
);
