import type { PromiseClient } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { RepoServiceDefinition } from "@quarry/proto";
import type { ObjectStore } from "@quarry/object-store";
import type { OutboxRelay } from "@quarry/bus";
import type { TransactionClient } from "@quarry/service";
import type { SecretBox } from "@quarry/secret-box";
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
  /** Seals the TOTP secrets (QUARRY_IDENTITY_ENCRYPTION_KEY, context "identity.otp_secret"). */
  otpBox: SecretBox;
  /** DNS servers for verified-domain TXT look-ups ("host" or "host:port"); empty = the system's. */
  dnsServers: string[];
}
