import { runServiceProcess } from "@quarry/service";
import { loadCiEnv } from "./env.ts";
import { startCiService } from "./server.ts";
import { objectStoreFromEnv } from "./storage.ts";

// Process entry for the distributed mode: one ci-service per process.
await runServiceProcess("ci-service", loadCiEnv, async ({ env, log, bus }) => {
  const objectStore = objectStoreFromEnv(env);
  await objectStore.ensureBucket();
  return startCiService({
    databaseUrl: env.DATABASE_URL,
    grpcAddress: env.GRPC_ADDRESS,
    bus,
    log,
    objectStore,
    encryptionKey: env.QUARRY_CI_ENCRYPTION_KEY,
    roles: env.QUARRY_CI_ROLE,
    repoServiceAddress: env.REPO_SERVICE_ADDRESS,
    identityServiceAddress: env.IDENTITY_SERVICE_ADDRESS,
    settings: {
      runnerSilenceTimeoutSeconds: env.QUARRY_CI_RUNNER_SILENCE_TIMEOUT_SECONDS,
      defaultArtifactsExpireIn: env.QUARRY_ARTIFACTS_DEFAULT_EXPIRE_IN,
      artifactsDirectDownload: env.QUARRY_ARTIFACTS_DIRECT_DOWNLOAD,
      runnerRegistrationToken: env.QUARRY_RUNNER_REGISTRATION_TOKEN,
      workerIntervalSeconds: env.QUARRY_CI_WORKER_INTERVAL_SECONDS,
    },
  });
});
