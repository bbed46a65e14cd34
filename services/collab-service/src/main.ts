import { runServiceProcess } from "@quarry/service";
import { loadCollabEnv } from "./env.ts";
import { startCollabService } from "./server.ts";

// Process entry for the distributed mode: one collab-service per process.
await runServiceProcess("collab-service", loadCollabEnv, ({ env, log, bus }) =>
  startCollabService({
    databaseUrl: env.DATABASE_URL,
    grpcAddress: env.GRPC_ADDRESS,
    identityServiceAddress: env.IDENTITY_SERVICE_ADDRESS,
    repoServiceAddress: env.REPO_SERVICE_ADDRESS,
    deadlineMs: env.GRPC_DEADLINE_MS,
    notesCreateLimit: env.QUARRY_NOTES_CREATE_LIMIT,
    issueDue: { intervalMs: env.QUARRY_ISSUE_DUE_INTERVAL_MS },
    bus,
    log,
  }),
);
