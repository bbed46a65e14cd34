import { envAddress, minioShape, parseEnv, z } from "@quarry/env";

/** ci-service configuration; the only module that reads process.env. */
export const ciEnvShape = {
  DATABASE_URL: z.string().url(),
  /** NATS JetStream; unset = in-process bus (only useful inside the one-process launcher). */
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50053"),
  /** S3/MinIO for artifacts; when MINIO_ENDPOINT is unset, objects go to QUARRY_OBJECT_STORE_DIR. */
  ...minioShape,
  QUARRY_ARTIFACTS_BUCKET: z.string().default("artifacts"),
  /** Root of the local-disk object store (used only without MINIO_ENDPOINT). */
  QUARRY_OBJECT_STORE_DIR: z.string().default("./data/objects"),
  LOG_LEVEL: z.string().default("info"),
};

export type CiEnv = ReturnType<typeof loadCiEnv>;

export function loadCiEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(ciEnvShape, source);
}
