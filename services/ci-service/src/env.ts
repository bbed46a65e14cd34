import { envAddress, minioShape, parseEnv, z } from "@quarry/env";
import { parseCiRoles } from "./roles.ts";

/** ci-service configuration; the only module that reads process.env. */
export const ciEnvShape = {
  DATABASE_URL: z.string().url(),
  /** NATS JetStream; unset = in-process bus (only useful inside the one-process launcher). */
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50053"),
  /** repo-service: reads `.gitlab-ci.yml` and commits for new pipelines. */
  REPO_SERVICE_ADDRESS: envAddress("127.0.0.1:50052"),
  /** identity-service: project facts for pipelines created from push events. */
  IDENTITY_SERVICE_ADDRESS: envAddress("127.0.0.1:50051"),
  /** A running job whose runner has not reported for this long fails with stuck_or_timeout_failure (GitLab: 1 hour). */
  QUARRY_CI_RUNNER_SILENCE_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(3600),
  /** How often the watchdog (stuck jobs) and the artifact cleanup run, in each replica. */
  QUARRY_CI_WORKER_INTERVAL_SECONDS: z.coerce.number().positive().default(60),
  /** Artifact expiry when a job does not say (GitLab's default_artifacts_expire_in). */
  QUARRY_ARTIFACTS_DEFAULT_EXPIRE_IN: z.string().default("30 days"),
  /** Instance runner registration token for the legacy `POST /api/v4/runners`; unset = closed. */
  QUARRY_RUNNER_REGISTRATION_TOKEN: z.string().default(""),
  /** Secret that projects' runner registration tokens are encrypted with (at least 32 characters). */
  QUARRY_CI_ENCRYPTION_KEY: z.string().min(32),
  /** Answer artifact downloads with a redirect to a presigned URL when the store can presign. */
  QUARRY_ARTIFACTS_DIRECT_DOWNLOAD: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** S3/MinIO for artifacts; when MINIO_ENDPOINT is unset, objects go to QUARRY_OBJECT_STORE_DIR. */
  ...minioShape,
  QUARRY_ARTIFACTS_BUCKET: z.string().default("artifacts"),
  /** Root of the local-disk object store (used only without MINIO_ENDPOINT). */
  QUARRY_OBJECT_STORE_DIR: z.string().default("./data/objects"),
  /** What this process does: `all` (api + worker), or a comma list of api, worker, artifacts (src/roles.ts). */
  QUARRY_CI_ROLE: z
    .string()
    .default("all")
    .transform((value, ctx) => {
      try {
        return parseCiRoles(value);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }),
  LOG_LEVEL: z.string().default("info"),
};

export type CiEnv = ReturnType<typeof loadCiEnv>;

export function loadCiEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(ciEnvShape, source);
}
