import type { PromiseClient } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { RepoServiceDefinition } from "@quarry/proto";
import type { ObjectStore } from "@quarry/object-store";
import type { OutboxRelay } from "@quarry/bus";
import type { TransactionClient } from "@quarry/service";
import type { PrismaClient } from "./generated/prisma/client.ts";

export type { PrismaClient };
/** The client of an interactive transaction (`prisma.$transaction(async (tx) => …)`). */
export type Tx = TransactionClient<PrismaClient>;

/** Everything the handlers need, wired by hand in main.ts (or the standalone launcher). */
export interface IdentityDeps {
  prisma: PrismaClient;
  repo: PromiseClient<RepoServiceDefinition>;
  outbox: OutboxRelay;
  /** Where avatar images are kept (their references are in the users, namespaces and projects rows). */
  avatars: ObjectStore;
  log: Logger;
  config: { rootEmail: string; rootPassword?: string };
}
