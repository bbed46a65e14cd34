import { envAddress, envBoolean, envInt, parseEnv, z } from "@quarry/env";

/** mirror-service configuration; the only module that reads process.env. */
export const mirrorEnvShape = {
  DATABASE_URL: z.string().url(),
  /** NATS JetStream; unset = in-process bus (only useful inside the one-process launcher). */
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50054"),
  /** repo-service, which runs the `git push` of a sync. */
  REPO_SERVICE_ADDRESS: envAddress("127.0.0.1:50052"),
  /** identity-service, for the instance settings (allow_local_requests_from_web_hooks_and_services). */
  IDENTITY_SERVICE_ADDRESS: envAddress("127.0.0.1:50051"),
  GRPC_DEADLINE_MS: envInt(10_000),
  /** Secret that mirror passwords and SSH private keys are encrypted with (at least 32 characters). */
  QUARRY_MIRROR_ENCRYPTION_KEY: z.string().min(32),
  /** Let mirrors push to loopback and private-network addresses whatever the application setting says. */
  QUARRY_ALLOW_LOCAL_REQUESTS: envBoolean(false),
  LOG_LEVEL: z.string().default("info"),
};

export type MirrorEnv = ReturnType<typeof loadMirrorEnv>;

export function loadMirrorEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(mirrorEnvShape, source);
}
