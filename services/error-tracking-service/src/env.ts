import { envAddress, envInt, parseEnv, z } from "@quarry/env";

/** error-tracking-service configuration; the only module that reads process.env. */
export const errorTrackingEnvShape = {
  DATABASE_URL: z.string().url(),
  /** NATS JetStream; unset = in-process bus (only useful inside the one-process launcher). */
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50057"),
  GRPC_DEADLINE_MS: envInt(10_000),
  LOG_LEVEL: z.string().default("info"),
};

export type ErrorTrackingEnv = ReturnType<typeof loadErrorTrackingEnv>;

export function loadErrorTrackingEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(errorTrackingEnvShape, source);
}
