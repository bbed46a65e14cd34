import { unauthenticated } from "@quarry/grpc";
import type { AuthenticateRequest__Output } from "@quarry/proto/types/identity/v1/AuthenticateRequest";
import type { AuthenticateResponse } from "@quarry/proto/types/identity/v1/AuthenticateResponse";
import type { IdentityDeps } from "../deps.ts";
import { userToProto } from "./convert.ts";
import { tokenDigest } from "./passwords.ts";

// last_used_at is refreshed at most this often, so authentication stays a read.
const LAST_USED_GRANULARITY_MS = 10 * 60 * 1000;

/** Resolves a token by its digest; unknown, revoked, expired, or blocked owner → UNAUTHENTICATED. */
export const authenticate =
  (deps: IdentityDeps) =>
  async (req: AuthenticateRequest__Output): Promise<AuthenticateResponse> => {
    if (!req.token) throw unauthenticated();
    const token = await deps.prisma.personalAccessToken.findUnique({
      where: { tokenDigest: tokenDigest(req.token) },
      include: { user: { include: { namespace: { select: { id: true } } } } },
    });
    const today = Date.parse(new Date().toISOString().slice(0, 10));
    if (!token || token.revoked || (token.expiresAt && token.expiresAt.getTime() <= today) || token.user.state !== "active") {
      throw unauthenticated();
    }
    if (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      await deps.prisma.personalAccessToken.update({ where: { id: token.id }, data: { lastUsedAt: new Date() } });
    }
    return {
      user: userToProto(token.user),
      tokenId: token.id,
      scopes: token.scopes,
      expiresAt: token.expiresAt ? token.expiresAt.toISOString().slice(0, 10) : "",
    };
  };
