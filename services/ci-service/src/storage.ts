import path from "node:path";
import { LocalDiskObjectStore, MinioObjectStore, type ObjectStore, objectStoreFromEnv as storeFromEnv } from "@quarry/object-store";
import type { CiEnv } from "./env.ts";

export type StorageKind = "local" | "minio";

/** The artifact store main.ts wires: MinIO/S3 when MINIO_ENDPOINT is set, else local disk. */
export function objectStoreFromEnv(
  env: Pick<
    CiEnv,
    "MINIO_ENDPOINT" | "MINIO_PORT" | "MINIO_USE_SSL" | "MINIO_ACCESS_KEY" | "MINIO_SECRET_KEY" | "QUARRY_ARTIFACTS_BUCKET" | "QUARRY_OBJECT_STORE_DIR"
  >,
): ObjectStore {
  return storeFromEnv(env, env.QUARRY_ARTIFACTS_BUCKET, path.resolve(env.QUARRY_OBJECT_STORE_DIR));
}

/** Which implementation a store is; only the two in @quarry/object-store are supported. */
export function storageKind(store: ObjectStore): StorageKind {
  if (store instanceof MinioObjectStore) return "minio";
  if (store instanceof LocalDiskObjectStore) return "local";
  throw new TypeError(`unsupported object store: ${store.constructor?.name ?? typeof store}`);
}
