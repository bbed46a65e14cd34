import { LocalDiskObjectStore, type LocalDiskObjectStoreOptions } from "./local.ts";
import { MinioObjectStore, type MinioObjectStoreOptions } from "./minio.ts";
import type { ObjectStore } from "./object-store.ts";

export {
  ObjectNotFoundError,
  assertValidKey,
  assertValidPrefix,
  type ObjectInfo,
  type ObjectStore,
  type PutBody,
  type PutOptions,
} from "./object-store.ts";
export { LocalDiskObjectStore, type LocalDiskObjectStoreOptions } from "./local.ts";
export { MinioObjectStore, type MinioObjectStoreOptions } from "./minio.ts";

/** The store to build: the implementation's own options, tagged with its kind. */
export type ObjectStoreConfig = ({ kind: "local" } & LocalDiskObjectStoreOptions) | ({ kind: "minio" } & MinioObjectStoreOptions);

/** Builds the configured store. Call `ensureBucket()` once at startup before using it. */
export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  switch (config.kind) {
    case "local": {
      const { kind: _kind, ...options } = config;
      return new LocalDiskObjectStore(options);
    }
    case "minio": {
      const { kind: _kind, ...options } = config;
      return new MinioObjectStore(options);
    }
    default: {
      const unknownKind: never = config;
      throw new TypeError(`unknown object store kind: ${JSON.stringify((unknownKind as { kind?: unknown }).kind)}`);
    }
  }
}

/** A service's S3/MinIO settings, as `minioShape` of @quarry/env parses them. */
export interface MinioEnv {
  MINIO_ENDPOINT?: string;
  MINIO_PORT: number;
  MINIO_USE_SSL: boolean;
  MINIO_ACCESS_KEY?: string;
  MINIO_SECRET_KEY?: string;
}

/** The MinIO/S3 store of `bucket` when MINIO_ENDPOINT is set (both keys then required), else undefined. */
export function minioStoreFromEnv(env: MinioEnv, bucket: string): ObjectStore | undefined {
  if (!env.MINIO_ENDPOINT) return undefined;
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
    bucket,
  });
}

/** The store of `bucket`: MinIO/S3 when MINIO_ENDPOINT is set, else local disk under `localRoot`. */
export function objectStoreFromEnv(env: MinioEnv, bucket: string, localRoot: string): ObjectStore {
  return minioStoreFromEnv(env, bucket) ?? createObjectStore({ kind: "local", root: localRoot, bucket });
}
