import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { CreatePersonalAccessTokenRequest__Output } from "@quarry/proto/types/identity/v1/CreatePersonalAccessTokenRequest";
import type { PersonalAccessToken as TokenMsg } from "@quarry/proto/types/identity/v1/PersonalAccessToken";
import type { Tx } from "../deps.ts";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { tokenToProto } from "./convert.ts";
import { forbidden } from "@quarry/grpc";
import { newToken, tokenDigest } from "./passwords.ts";
import { validateScopes } from "./tokens-common.ts";
import { enqueueTokenAudit } from "./audit-records.ts";
import { parseDate } from "./validate.ts";

export async function insertToken(
  tx: Tx,
  input: { userId: number; name: string; scopes: string[]; expiresAt: Date | null; description?: string; preset?: string; impersonation?: boolean },
) {
  const clear = input.preset || newToken();
  const row = await tx.personalAccessToken.create({
    data: {
      userId: input.userId,
      name: input.name,
      description: input.description ?? "",
      scopes: input.scopes,
      expiresAt: input.expiresAt,
      tokenDigest: tokenDigest(clear),
      impersonation: input.impersonation ?? false,
    },
  });
  return { row, clear };
}

/** Administrators create tokens for anyone; users for themselves. The clear value is returned once. */
export const createPersonalAccessToken =
  (deps: IdentityDeps) =>
  async (req: CreatePersonalAccessTokenRequest__Output): Promise<TokenMsg> => {
    const actor = actorOf(req.actor);
    const userId = Number(req.userId) || actor.userId;
    if (!actor.isAdmin && userId !== actor.userId) throw forbidden();
    if ((req.presetToken || req.impersonation) && !actor.isAdmin) throw forbidden();
    if (!req.name) throw paramError("name is missing");
    // Impersonation tokens take optional scopes and fail the model's validation without any.
    if (req.impersonation && !req.scopes.length) throw badRequest({ scopes: ["can't be blank"] });
    validateScopes(req.scopes);
    const expiresAt = parseDate(req.expiresAt, "expires_at");
    if (expiresAt && expiresAt.getTime() < Date.parse(new Date().toISOString().slice(0, 10))) {
      throw badRequest({ expires_at: ["must be in the future"] });
    }
    const { row, clear } = await deps.prisma.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true } });
      if (!user) throw notFound("User");
      const created = await insertToken(tx, {
        userId,
        name: req.name,
        scopes: req.scopes,
        expiresAt,
        description: req.description,
        preset: req.presetToken,
        impersonation: req.impersonation,
      });
      await enqueueTokenAudit(tx, "created", created.row, actor);
      return created;
    });
    deps.outbox.kick();
    return tokenToProto(row, clear);
  };
