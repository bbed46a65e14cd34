import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor } from "../../http/auth.ts";

/**
 * identity-service's GetUser through the gateway's user cache (http/user-cache.ts): a warm answer
 * makes no identity call; an unknown user (404) always asks identity. The answer is shared with
 * other requests (frozen): do not change it.
 */
export async function cachedUser(deps: GatewayDeps, req: Request, id: number): Promise<User> {
  const hit = deps.userCache.get(id);
  if (hit) return hit;
  const generation = deps.userCache.generation;
  const user = await deps.identity.GetUser({ actor: actor(req), id }, { requestId: req.requestId });
  deps.userCache.set(id, user, generation);
  return user;
}
