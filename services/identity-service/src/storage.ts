import path from "node:path";
import { createObjectStore, type ObjectStore } from "@quarry/object-store";
import type { IdentityEnv } from "./env.ts";

/** The avatar store main.ts wires: MinIO/S3 when MINIO_ENDPOINT is set, else local disk. */
export function avatarStoreFromEnv(
  env: Pick<IdentityEnv, "MINIO_ENDPOINT" | "MINIO_PORT" | "MINIO_USE_SSL" | "MINIO_ACCESS_KEY" | "MINIO_SECRET_KEY" | "QUARRY_UPLOADS_BUCKET" | "QUARRY_OBJECT_STORE_DIR">,
): ObjectStore {
  if (!env.MINIO_ENDPOINT) {
    return createObjectStore({ kind: "local", root: path.resolve(env.QUARRY_OBJECT_STORE_DIR), bucket: env.QUARRY_UPLOADS_BUCKET });
  }
  if (!env.MINIO_ACCESS_KEY || !env.MINIO_SECRET_KEY) {
    throw new Error("MINIO_ACCESS_KEY and MINIO_SECRET_KEY are required when MINIO_ENDPOINT is set");
  }
  return createObjectStore({
    kind: "minio",
    endPoint: env.MINIO_ENDPOINT,
    port: env.MINIO_PORT,
    useSSL: env.MINIO_USE_SSL,
    accessKey: env.MINIO_ACCESS_KEY,
    secretKey: env.MINIO_SECRET_KEY,
    bucket: env.QUARRY_UPLOADS_BUCKET,
  });
}
