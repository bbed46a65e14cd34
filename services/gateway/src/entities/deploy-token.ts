import type { DeployToken__Output as DeployToken } from "@quarry/proto/types/identity/v1/DeployToken";
import { orNull } from "./urls.ts";

/** Entities::DeployToken (the token's value is never part of it). */
export function deployToken(t: DeployToken) {
  return {
    id: Number(t.id),
    name: t.name,
    username: t.username,
    expires_at: orNull(t.expiresAt),
    scopes: t.scopes,
    revoked: t.revoked,
    expired: t.expired,
  };
}

/** Entities::DeployTokenWithToken: the creation answer, the only one with `token`. */
export function deployTokenWithToken(t: DeployToken) {
  return { ...deployToken(t), token: t.token };
}
