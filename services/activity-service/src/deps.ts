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
  /** A project's or group's full path, for records whose publisher knows only the id (null when gone). */
  entityPathOf(entityType: string, id: number): Promise<string | null>;
}

const SYSTEM = { system: "activity-service" };
const gone = (err: unknown) => (err as { code?: number }).code === 5;

/** entityPathOf over identity-service's GetProject / GetGroup, asked as the system actor. */
export function identityPaths(identity: PromiseClient<IdentityServiceDefinition>): ActivityDeps["entityPathOf"] {
  return async (entityType, id) => {
    try {
      if (entityType === "Project") return (await identity.GetProject({ actor: SYSTEM, idOrPath: String(id) })).pathWithNamespace;
      if (entityType === "Group") return (await identity.GetGroup({ actor: SYSTEM, idOrPath: String(id) })).fullPath;
      return null;
    } catch (err) {
      if (gone(err)) return null;
      throw err;
    }
  };
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
