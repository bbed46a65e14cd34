import type { Logger } from "@quarry/logger";
import type { ObjectStore } from "@quarry/object-store";
import type { PrismaClient } from "./db.ts";
import type { StorageKind } from "./storage.ts";

/** Everything the handlers need, wired by hand in server.ts. */
export interface CiDeps {
  prisma: PrismaClient;
  /** Artifacts; its bucket is the artifacts bucket. */
  objectStore: ObjectStore;
  storageKind: StorageKind;
  log: Logger;
}
