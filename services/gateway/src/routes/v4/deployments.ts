import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { pageRequest, setPaginationHeaders } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { deploymentEntity } from "../../entities/deployment.ts";
import { ciUrls, usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/** Deployment.statuses. */
const DEPLOYMENT_STATUSES = ["created", "running", "success", "failed", "canceled", "skipped", "blocked"] as const;

/**
 * Deployments (GitLab's lib/api/deployments.rb, reads): one per job that starts an environment,
 * its status following the job's. Signed-in callers only (GitLab's `authenticate!`), who may read
 * the project's pipelines. DeploymentsFinder's refusals (finished_at windows need `status=success`
 * and `order_by=finished_at`) come from ci-service.
 */
export function deploymentsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { ci } = deps;
  const base = "/projects/:id/deployments";

  r.get(base, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      ...pageShape,
      order_by: p.enum(["id", "iid", "created_at", "updated_at", "finished_at", "ref"]).optional(),
      sort: p.enum(["asc", "desc"]).optional(),
      updated_after: p.datetime().optional(),
      updated_before: p.datetime().optional(),
      finished_after: p.datetime().optional(),
      finished_before: p.datetime().optional(),
      environment: p.name("environment").optional(),
      status: p.enum(DEPLOYMENT_STATUSES).optional(),
    });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const page = pageRequest(q);
    const orderBy = q.order_by ?? "id";
    const sort = q.sort ?? "asc";
    const list = await ci.ListDeployments(
      {
        projectId: project.id,
        orderBy,
        sort,
        updatedAfter: q.updated_after ?? "",
        updatedBefore: q.updated_before ?? "",
        finishedAfter: q.finished_after ?? "",
        finishedBefore: q.finished_before ?? "",
        environment: q.environment ?? "",
        status: q.status ?? "",
        ...page,
      },
      c.call,
    );
    setPaginationHeaders(req, res, { total: Number(list.total), ...page }, deps.config.externalUrl, { order_by: orderBy, sort });
    const users = await usersById(
      deps,
      req,
      list.deployments.flatMap((d) => [Number(d.userId), Number(d.deployable?.userId ?? 0)]),
    );
    const u = ciUrls(c.urls, project);
    res.json(list.deployments.map((d) => deploymentEntity(d, users, u)));
  });

  r.get(`${base}/:deployment_id`, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, { deployment_id: p.id() });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const deployment = await ci.GetDeployment({ projectId: project.id, deploymentId: q.deployment_id }, c.call);
    const users = await usersById(deps, req, [Number(deployment.userId), Number(deployment.deployable?.userId ?? 0)]);
    res.json(deploymentEntity(deployment, users, ciUrls(c.urls, project)));
  });

  return r;
}
