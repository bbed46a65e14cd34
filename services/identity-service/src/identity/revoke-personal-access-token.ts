import { Subjects } from "@quarry/bus";
import { badRequest, notFound } from "@quarry/grpc";
import type { RevokePersonalAccessTokenRequest__Output } from "@quarry/proto/types/identity/v1/RevokePersonalAccessTokenRequest";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { enqueueEvent } from "@quarry/bus";
import { matches } from "./get-personal-access-token.ts";
import { enqueueTokenAudit } from "./audit-records.ts";

/** Revokes a token; the token_revoke event lets every gateway drop it from its cache at once. */
export const revokePersonalAccessToken =
  (deps: IdentityDeps) =>
  async (req: RevokePersonalAccessTokenRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    await deps.prisma.$transaction(async (tx) => {
      const token = await tx.personalAccessToken.findUnique({ where: { id: Number(req.id) } });
      if (!token || (!actor.isAdmin && token.userId !== actor.userId) || !matches(token, req)) {
        throw notFound(req.impersonation ? "Impersonation Token" : "Token");
      }
      // GitLab's impersonation token DELETE is token.revoke!, which a revoked token passes again.
      if (token.revoked && req.impersonation) return;
      if (token.revoked) throw badRequest("400 Bad request");
      await tx.personalAccessToken.update({ where: { id: token.id }, data: { revoked: true } });
      await enqueueEvent(tx, Subjects.tokenRevoke, { event_name: "token_revoke", token_id: token.id, user_id: token.userId });
      await enqueueTokenAudit(tx, "revoked", token, actor);
    });
    deps.outbox.kick();
    return {};
  };
