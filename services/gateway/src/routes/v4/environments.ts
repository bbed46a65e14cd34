import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { environmentEntity } from "../../entities/environment.ts";
import { ciUrls, usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/** GitLab's minimum length of an environment `search` (API::Environments::MIN_SEARCH_LENGTH). */
const MIN_SEARCH_LENGTH = 3;

/**
 * Environments (GitLab's lib/api/environments.rb, reads): created by ci-service from jobs'
 * `environment:`. Signed-in callers only (GitLab's `authenticate!`), who may read the project's
 * pipelines.
 */
export function environmentsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { ci } = deps;
  const base = "/projects/:id/environments";

  r.get(base, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      ...pageShape,
      name: p.name("name").optional(),
      search: p.searchTerm("search").optional(),
      states: p.enum(["available", "stopping", "stopped"]).optional(),
    });
    if (q.name !== undefined && q.search !== undefined) throw new ApiError(400, { error: "name, search cannot be used together" });
    if (q.search && q.search.length < MIN_SEARCH_LENGTH)
      throw new ApiError(400, { message: `400 Bad request - Search query is less than ${MIN_SEARCH_LENGTH} characters` });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const page = pageRequest(q);
    const list = await ci.ListEnvironments({ projectId: project.id, name: q.name ?? "", search: q.search ?? "", states: q.states ?? "", ...page }, c.call);
    c.paginate({ total: Number(list.total), ...page });
    const u = ciUrls(c.urls, project);
    res.json(list.environments.map((e) => environmentEntity(e, project, u)));
  });

  r.get(`${base}/:environment_id`, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, { environment_id: p.id() });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const environment = await ci.GetEnvironment({ projectId: project.id, environmentId: q.environment_id }, c.call);
    const deployment = environment.lastDeployment;
    const users = await usersById(deps, req, deployment ? [Number(deployment.userId), Number(deployment.deployable?.userId ?? 0)] : []);
    res.json(environmentEntity(environment, project, ciUrls(c.urls, project), { lastDeployment: users }));
  });

  return r;
}
