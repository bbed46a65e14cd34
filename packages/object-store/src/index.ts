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
export type ObjectStoreConfig =
  | ({ kind: "local" } & LocalDiskObjectStoreOptions)
  | ({ kind: "minio" } & MinioObjectStoreOptions);

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
