import { LocalDiskObjectStore } from "./local.ts";
import { MinioObjectStore } from "./minio.ts";
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

export type ObjectStoreConfig =
  | { kind: "local"; root: string; bucket: string }
  | {
      kind: "minio";
      endPoint: string;
      port: number;
      useSSL: boolean;
      accessKey: string;
      secretKey: string;
      bucket: string;
      region?: string;
      pathStyle?: boolean;
    };

/** Builds the configured store. Call `ensureBucket()` once at startup before using it. */
export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  switch (config.kind) {
    case "local":
      return new LocalDiskObjectStore({ root: config.root, bucket: config.bucket });
    case "minio":
      return new MinioObjectStore({
        endPoint: config.endPoint,
        port: config.port,
        useSSL: config.useSSL,
        accessKey: config.accessKey,
        secretKey: config.secretKey,
        bucket: config.bucket,
        ...(config.region !== undefined && { region: config.region }),
        ...(config.pathStyle !== undefined && { pathStyle: config.pathStyle }),
      });
    default: {
      const unknownKind: never = config;
      throw new TypeError(`unknown object store kind: ${JSON.stringify((unknownKind as { kind?: unknown }).kind)}`);
    }
  }
}
