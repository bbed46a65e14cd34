import type { EventBus } from "@quarry/bus";
import type { Logger } from "@quarry/logger";
import type { PrismaClient } from "./db.ts";

/** Everything the handlers need, wired by hand in server.ts (or the standalone launcher). */
export interface RepoDeps {
  prisma: PrismaClient;
  /** Not used yet; later issues publish push events on it. */
  bus: EventBus;
  log: Logger;
  /** Absolute path of the directory holding the repositories. */
  storageRoot: string;
}
