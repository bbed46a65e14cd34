import path from "node:path";
import { type ObjectStore, objectStoreFromEnv } from "@quarry/object-store";
import type { IdentityEnv } from "./env.ts";

/** The avatar store main.ts wires: MinIO/S3 when MINIO_ENDPOINT is set, else local disk. */
export function avatarStoreFromEnv(
  env: Pick<
    IdentityEnv,
    "MINIO_ENDPOINT" | "MINIO_PORT" | "MINIO_USE_SSL" | "MINIO_ACCESS_KEY" | "MINIO_SECRET_KEY" | "QUARRY_UPLOADS_BUCKET" | "QUARRY_OBJECT_STORE_DIR"
  >,
): ObjectStore {
  return objectStoreFromEnv(env, env.QUARRY_UPLOADS_BUCKET, path.resolve(env.QUARRY_OBJECT_STORE_DIR));
}
