import type { Logger } from "@quarry/logger";
import type { PrismaClient } from "./db.ts";

/** Everything the handlers need, wired by hand in server.ts. */
export interface HookDeps {
  prisma: PrismaClient;
  log: Logger;
}
