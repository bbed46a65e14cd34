import { envAddress, parseEnv, z } from "@quarry/env";

/** mirror-service configuration; the only module that reads process.env. */
export const mirrorEnvShape = {
  DATABASE_URL: z.string().url(),
  /** NATS JetStream; unset = in-process bus (only useful inside the one-process launcher). */
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50054"),
  /**
   * Secret that mirror credentials are encrypted with (at least 32 characters). Optional until
   * mirrors with credentials can be created; required from then on.
   */
  QUARRY_MIRROR_ENCRYPTION_KEY: z.string().min(32).optional(),
  LOG_LEVEL: z.string().default("info"),
};

export type MirrorEnv = ReturnType<typeof loadMirrorEnv>;

export function loadMirrorEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(mirrorEnvShape, source);
}
