import { stopOnSignals } from "@quarry/grpc";
import { createBus } from "@quarry/bus";
import { createLogger } from "@quarry/logger";
import { loadGatewayEnv } from "./env.ts";
import { startGateway } from "./server.ts";
import { QUARRY_REVISION, QUARRY_VERSION } from "./version.ts";

// Process entry for the distributed mode.
const env = loadGatewayEnv();
const log = createLogger("gateway", env.LOG_LEVEL);
const bus = env.NATS_URL ? await createBus({ natsUrl: env.NATS_URL, name: "gateway", log }) : undefined;
const gateway = await startGateway({
  host: env.HOST,
  port: env.PORT,
  externalUrl: env.QUARRY_EXTERNAL_URL,
  sshHost: env.QUARRY_SSH_HOST,
  sshPort: env.QUARRY_SSH_PORT,
  identityServiceAddress: env.IDENTITY_SERVICE_ADDRESS,
  repoServiceAddress: env.REPO_SERVICE_ADDRESS,
  ciServiceAddress: env.CI_SERVICE_ADDRESS,
  ciArtifactsAddress: env.CI_ARTIFACTS_ADDRESS,
  hookServiceAddress: env.HOOK_SERVICE_ADDRESS,
  mirrorServiceAddress: env.MIRROR_SERVICE_ADDRESS,
  errorTrackingServiceAddress: env.ERROR_TRACKING_SERVICE_ADDRESS,
  activityServiceAddress: env.ACTIVITY_SERVICE_ADDRESS,
  collabServiceAddress: env.COLLAB_SERVICE_ADDRESS,
  deadlineMs: env.GRPC_DEADLINE_MS,
  authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
  metricsAllowedCidrs: env.QUARRY_METRICS_ALLOWED_CIDRS,
  maxBodyBytes: env.QUARRY_MAX_BODY_BYTES,
  maxAttachmentBytes: env.QUARRY_MAX_ATTACHMENT_SIZE,
  jobRequestWaitMs: env.QUARRY_JOB_REQUEST_WAIT_MS,
  bus,
  log,
  version: QUARRY_VERSION,
  revision: QUARRY_REVISION,
});
stopOnSignals(
  log,
  () => gateway.stop(),
  () => bus?.close(),
);
