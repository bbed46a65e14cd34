import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { AccessLevel } from "@quarry/gitlab";
import type { Request } from "express";
import type { GatewayDeps } from "../../deps.ts";

/** GitLab's user_can_admin_project (admin_project): Maintainers and up, and administrators. */
export function canAdminProject(req: Request, project: Project): boolean {
  return Boolean(req.principal?.isAdmin) || Math.max(project.projectAccessLevel, project.groupAccessLevel) >= AccessLevel.MAINTAINER;
}

/**
 * The `runners_token` of each project in a response that the caller can admin, in one call to
 * ci-service (which creates missing tokens); projects the caller cannot admin are not asked for.
 */
export async function runnersTokensFor(deps: GatewayDeps, req: Request, projects: Project[]): Promise<Map<number, string>> {
  const ids = projects.filter((p) => canAdminProject(req, p)).map((p) => Number(p.id));
  if (!ids.length) return new Map();
  const { tokens } = await deps.ci.GetProjectRunnersTokens({ projectIds: ids }, { requestId: req.requestId });
  return new Map(tokens.map((t) => [Number(t.projectId), t.token]));
}

/** The runners_token of one project for the caller, or undefined when they may not see it. */
export async function runnersTokenFor(deps: GatewayDeps, req: Request, project: Project): Promise<string | undefined> {
  return (await runnersTokensFor(deps, req, [project])).get(Number(project.id));
}
