import type { PushPayloadContext } from "@quarry/bus";
import { AccessLevel, buildPushContext } from "@quarry/gitlab";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor, requireUser } from "../../http/auth.ts";
import { assertJobTokenScope } from "../../http/job-token.ts";
import { authorizationKey, type ProjectAuthorization } from "../../http/authorization-cache.ts";
import type { Urls } from "../../entities/urls.ts";

const READ_ACTIONS = ["read_repository", "download_code", "read_build"] as const;
export type ProjectAction = (typeof READ_ACTIONS)[number] | "push_code" | "admin_project" | "update_build" | "create_pipeline" | "destroy_pipeline";

/**
 * Resolves `:id` and asks identity-service whether the caller may do `action` on it: invisible
 * projects are 404, visible ones with too low a role 403. Writes need a signed-in user.
 */
export async function authorizeProject(deps: GatewayDeps, req: Request, action: ProjectAction) {
  if (!(READ_ACTIONS as readonly string[]).includes(action)) requireUser(req);
  const res = await cachedAuthorize(deps, req, action, String(req.params.id));
  await assertJobTokenScope(deps, req, Number(res.project.id));
  return res;
}

/**
 * identity-service's Authorize for a project, through the gateway's authorization cache: a warm
 * success makes no identity call; refusals (404/403) are never cached and always ask identity.
 * The answer is shared with other requests (frozen): do not change it.
 */
export async function cachedAuthorize(deps: GatewayDeps, req: Request, action: ProjectAction | "read_project", ref: string): Promise<ProjectAuthorization> {
  const userId = req.principal?.userId ?? 0;
  const key = authorizationKey(userId, Boolean(req.principal?.isAdmin), action, ref);
  const hit = deps.authCache.get(key);
  if (hit) return hit;
  const generation = deps.authCache.generation;
  const res = await deps.identity.Authorize({ actor: actor(req), action, project: ref }, { requestId: req.requestId });
  const answer = { project: res.project!, accessLevel: res.accessLevel };
  deps.authCache.set(key, answer, generation, userId, ref);
  return answer;
}

/** The project as identity-service's GetProject answers it (the same visibility rule: 404 when invisible), through the cache. */
export async function cachedProject(deps: GatewayDeps, req: Request, ref: string): Promise<Project> {
  return (await cachedAuthorize(deps, req, "read_project", ref)).project;
}

/** The caller's level as protected-branch rules check it: instance admins count as 60. */
export function ruleLevel(req: Request, accessLevel: number): number {
  return req.principal?.isAdmin ? Math.max(accessLevel, AccessLevel.ADMIN) : accessLevel;
}

/** The facts a push event needs about the project and the acting user, and the user's level (@quarry/gitlab's buildPushContext, shared with git over SSH). */
export function pushContext(auth: { project: Project; accessLevel: number }, req: Request, urls: Urls): PushContext & PushPayloadContext {
  const p = requireUser(req);
  return buildPushContext(
    auth.project,
    { userId: p.userId, name: p.name, username: p.username, email: p.email, isAdmin: Boolean(p.isAdmin) },
    auth.accessLevel,
    urls,
  );
}
