import type { PromiseClient } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { IdentityServiceDefinition } from "@quarry/proto";
import type { TransactionClient } from "@quarry/service";
import type { PrismaClient } from "./generated/prisma/client.ts";

export type { PrismaClient };
/** The client of an interactive transaction (`prisma.$transaction(async (tx) => …)`). */
export type Tx = TransactionClient<PrismaClient>;

/** What the author of an audit event looks like in its details. */
export interface AuthorInfo {
  name: string;
  email: string;
}

/** Everything the handlers and the recorder need, wired in server.ts. */
export interface ActivityDeps {
  prisma: PrismaClient;
  log: Logger;
  /** The author's name and e-mail at the time of recording (null when the user is gone). */
  authorOf(userId: number): Promise<AuthorInfo | null>;
}

/** authorOf over identity-service's GetUser, asked as the system actor "activity-service". */
export function identityAuthors(identity: PromiseClient<IdentityServiceDefinition>): ActivityDeps["authorOf"] {
  return async (userId) => {
    if (!userId) return null;
    try {
      const u = await identity.GetUser({ actor: { system: "activity-service" }, id: userId });
      return { name: u.name, email: u.email };
    } catch (err) {
      if ((err as { code?: number }).code === 5) return null; // NOT_FOUND: the author was deleted
      throw err;
    }
  };
}
