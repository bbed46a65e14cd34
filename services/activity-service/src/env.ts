import { envAddress, envInt, parseEnv, z } from "@quarry/env";

/** activity-service configuration; the only module that reads process.env. */
export const activityEnvShape = {
  DATABASE_URL: z.string().url(),
  /** NATS JetStream; unset = in-process bus (only useful inside the one-process launcher). */
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50058"),
  /** identity-service: the names and e-mails of audit events' authors. */
  IDENTITY_SERVICE_ADDRESS: envAddress("127.0.0.1:50051"),
  GRPC_DEADLINE_MS: envInt(10_000),
  LOG_LEVEL: z.string().default("info"),
};

export type ActivityEnv = ReturnType<typeof loadActivityEnv>;

export function loadActivityEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(activityEnvShape, source);
}
