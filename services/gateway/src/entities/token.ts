import type { PersonalAccessToken__Output as Token } from "@quarry/proto/types/identity/v1/PersonalAccessToken";
import { orNull } from "./urls.ts";

/** A personal access token; `token` (the clear value) only in the creation response. */
export function personalAccessToken(t: Token) {
  return {
    id: Number(t.id),
    name: t.name,
    revoked: t.revoked,
    created_at: t.createdAt,
    description: orNull(t.description),
    scopes: t.scopes,
    user_id: Number(t.userId),
    last_used_at: orNull(t.lastUsedAt),
    active: t.active,
    expires_at: orNull(t.expiresAt),
    ...(t.token ? { token: t.token } : {}),
  };
}
