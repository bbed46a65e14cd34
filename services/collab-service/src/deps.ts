import type { ApplicationSettingsCache } from "@quarry/application-settings";
import type { OutboxRelay } from "@quarry/bus";
import type { PromiseClient } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { IdentityServiceDefinition, RepoServiceDefinition } from "@quarry/proto";
import type { TransactionClient } from "@quarry/service";
import type { PrismaClient } from "./generated/prisma/client.ts";

export type { PrismaClient };
/** The client of an interactive transaction (`prisma.$transaction(async (tx) => …)`). */
export type Tx = TransactionClient<PrismaClient>;

/** Everything the handlers need, wired by hand in server.ts. */
export interface CollabDeps {
  prisma: PrismaClient;
  /** identity-service: Authorize (visibility and roles) and GetGroupAncestors (a parent's groups). */
  identity: PromiseClient<IdentityServiceDefinition>;
  /** repo-service: the snippets' repositories. */
  repo: PromiseClient<RepoServiceDefinition>;
  /** Publishes committed `outbox_events` rows (started and stopped by the service skeleton); kick() after a commit. */
  outbox: OutboxRelay;
  log: Logger;
  /** Pins the notes one user may create per minute (0 = unlimited); unset: the notes_create_limit application setting. */
  notesCreateLimit: number | undefined;
  /** The instance settings in force, kept live from the bus. */
  settings: ApplicationSettingsCache;
}
