import type { Logger } from "@quarry/logger";
import type { PrismaClient } from "./generated/prisma/client.ts";

export type { PrismaClient };

/** Everything the handlers need, wired by hand in server.ts. */
export interface ErrorTrackingDeps {
  prisma: PrismaClient;
  log: Logger;
}
