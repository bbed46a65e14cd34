import { notFound } from "@quarry/grpc";
import type { GetPersonalAccessTokenRequest__Output } from "@quarry/proto/types/identity/v1/GetPersonalAccessTokenRequest";
import type { PersonalAccessToken as TokenMsg } from "@quarry/proto/types/identity/v1/PersonalAccessToken";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { tokenToProto } from "./convert.ts";

/** Someone else's token is 404 to non-administrators, like a missing one. */
export const getPersonalAccessToken =
  (deps: IdentityDeps) =>
  async (req: GetPersonalAccessTokenRequest__Output): Promise<TokenMsg> => {
    const actor = actorOf(req.actor);
    const token = await deps.prisma.personalAccessToken.findUnique({ where: { id: Number(req.id) } });
    if (!token || (!actor.isAdmin && token.userId !== actor.userId) || !matches(token, req)) {
      throw notFound(req.impersonation ? "Impersonation Token" : "Token");
    }
    return tokenToProto(token);
  };

/** The optional narrowing of Get/RevokePersonalAccessTokenRequest: one user's, impersonation or not. */
export function matches(token: { userId: number; impersonation: boolean }, req: { userId?: number | string | null; impersonation?: boolean | null }): boolean {
  if (Number(req.userId) && token.userId !== Number(req.userId)) return false;
  if (req.impersonation !== undefined && req.impersonation !== null && token.impersonation !== req.impersonation) return false;
  return true;
}
