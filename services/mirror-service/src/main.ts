import { runServiceProcess } from "@quarry/service";
import { loadMirrorEnv } from "./env.ts";
import { startMirrorService } from "./server.ts";

// Process entry for the distributed mode: one mirror-service per process.
await runServiceProcess("mirror-service", loadMirrorEnv, ({ env, log, bus }) =>
  startMirrorService({
    databaseUrl: env.DATABASE_URL,
    grpcAddress: env.GRPC_ADDRESS,
    repoServiceAddress: env.REPO_SERVICE_ADDRESS,
    identityServiceAddress: env.IDENTITY_SERVICE_ADDRESS,
    deadlineMs: env.GRPC_DEADLINE_MS,
    encryptionKey: env.QUARRY_MIRROR_ENCRYPTION_KEY,
    allowLocalRequests: env.QUARRY_ALLOW_LOCAL_REQUESTS,
    bus,
    log,
  }),
);
