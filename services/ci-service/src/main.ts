import { stopOnSignals } from "@quarry/grpc";
import { createBus } from "@quarry/bus";
import { createLogger } from "@quarry/logger";
import { loadCiEnv } from "./env.ts";
import { startCiService } from "./server.ts";
import { objectStoreFromEnv } from "./storage.ts";

// Process entry for the distributed mode: one ci-service per process.
const env = loadCiEnv();
const log = createLogger("ci-service", env.LOG_LEVEL);
const objectStore = objectStoreFromEnv(env);
await objectStore.ensureBucket();
const bus = await createBus({ natsUrl: env.NATS_URL, name: "ci-service", log });
const service = await startCiService({
  databaseUrl: env.DATABASE_URL,
  grpcAddress: env.GRPC_ADDRESS,
  bus,
  log,
  objectStore,
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

stopOnSignals(log, () => service.stop(), () => bus.close());
