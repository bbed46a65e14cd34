import { envAddress, envBoolean, envInt, minioShape, parseEnv, z } from "@quarry/env";

/** identity-service configuration; the only module that reads process.env. */
export const identityEnvShape = {
  DATABASE_URL: z.string().url(),
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50051"),
  REPO_SERVICE_ADDRESS: envAddress("127.0.0.1:50052"),
  GRPC_DEADLINE_MS: envInt(10_000),
  /** Token registered for root on first start; generated and printed once when unset. */
  QUARRY_ROOT_TOKEN: z.string().min(20).optional(),
  QUARRY_ROOT_PASSWORD: z.string().min(8).optional(),
  QUARRY_ROOT_EMAIL: z.string().email().default("admin@example.com"),
  /** Create root when the instance is empty (only one replica needs to; the others find it). */
  QUARRY_BOOTSTRAP_ROOT: envBoolean(true),
  /** S3/MinIO for avatars; when MINIO_ENDPOINT is unset, they go to QUARRY_OBJECT_STORE_DIR. */
  ...minioShape,
  /** The bucket avatar images are kept in. */
  QUARRY_UPLOADS_BUCKET: z.string().default("uploads"),
  /** Root of the local-disk object store (used only without MINIO_ENDPOINT). */
  QUARRY_OBJECT_STORE_DIR: z.string().default("./data/objects"),
  LOG_LEVEL: z.string().default("info"),
  /** Seals two-factor (TOTP) secrets at rest; at least 32 characters. */
  QUARRY_IDENTITY_ENCRYPTION_KEY: z.string().min(32),
  /** Comma-separated DNS servers ("host" or "host:port") for verified-domain TXT look-ups; unset = the system's. */
  QUARRY_DNS_SERVERS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
};

export type IdentityEnv = ReturnType<typeof loadIdentityEnv>;

export function loadIdentityEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(identityEnvShape, source);
}
