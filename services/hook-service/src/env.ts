import { envAddress, parseEnv, z } from "@quarry/env";

/** hook-service configuration; the only module that reads process.env. */
export const hookEnvShape = {
  DATABASE_URL: z.string().url(),
  /** NATS JetStream; unset = in-process bus (only useful inside the one-process launcher). */
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50055"),
  LOG_LEVEL: z.string().default("info"),
};

export type HookEnv = ReturnType<typeof loadHookEnv>;

export function loadHookEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(hookEnvShape, source);
}
