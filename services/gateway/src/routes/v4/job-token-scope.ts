import { isNotFound } from "@quarry/grpc";
import type { Group__Output as Group } from "@quarry/proto/types/identity/v1/Group";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor, scope } from "../../http/auth.ts";
import { notFound } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { allowlistGroupEntity, allowlistProjectEntity, groupLinkEntity, jobTokenScopeEntity, projectLinkEntity } from "../../entities/job-token-scope.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/**
 * CI/CD job token scope (GitLab's lib/api/ci/job_token_scope.rb): the setting and the inbound
 * project and group allowlists live in ci-service; every call needs Maintainer on the project.
 * Targets are looked up as the caller sees them, so a project or group the caller cannot see is
 * 404 like a missing one and never shows in a list.
 */
export function jobTokenScopeRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { ci, identity } = deps;
  const base = "/projects/:id/job_token_scope";

  const visibleProject = (req: Request, id: number): Promise<Project | null> =>
    identity.GetProject({ actor: actor(req), idOrPath: String(id) }, { requestId: req.requestId }).catch((err: unknown) => {
      if (isNotFound(err)) return null;
      throw err;
    });
  const visibleGroup = (req: Request, id: number): Promise<Group | null> =>
    identity.GetGroup({ actor: actor(req), idOrPath: String(id) }, { requestId: req.requestId }).catch((err: unknown) => {
      if (isNotFound(err)) return null;
      throw err;
    });

  r.get(base, scope("read"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    res.json(jobTokenScopeEntity(await ci.GetJobTokenScope({ projectId: project.id }, c.call)));
  });

  r.patch(base, scope("write"), async (req, res) => {
    const q = params(req, { enabled: p.bool() });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    await ci.SetJobTokenScope({ projectId: project.id, enabled: q.enabled }, c.call);
    res.status(204).end();
  });

  r.get(`${base}/allowlist`, scope("read"), async (req, res) => {
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    const page = pageRequest(q);
    const list = await ci.ListJobTokenProjectLinks({ projectId: project.id, page: page.page, perPage: page.perPage }, c.call);
    const projects = await Promise.all(list.targetIds.map((id) => (id === project.id ? project : visibleProject(req, id))));
    c.paginate({ total: Number(list.total), ...page });
    res.json(projects.filter((x): x is Project => x !== null).map((x) => allowlistProjectEntity(x, c.urls)));
  });

  r.post(`${base}/allowlist`, scope("write"), async (req, res) => {
    const q = params(req, { target_project_id: p.id("target_project_id not found") });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    const target = await visibleProject(req, q.target_project_id);
    if (!target) throw notFound("target_project_id not found");
    const link = await ci.AddJobTokenProjectLink({ projectId: project.id, targetId: target.id }, c.call);
    res.status(201).json(projectLinkEntity(Number(link.sourceProjectId), Number(link.targetId)));
  });

  r.delete(`${base}/allowlist/:target_project_id`, scope("write"), async (req, res) => {
    const q = params(req, { target_project_id: p.id("Project") });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    const target = await visibleProject(req, q.target_project_id);
    if (!target) throw notFound("Project");
    await ci.RemoveJobTokenProjectLink({ projectId: project.id, targetId: target.id }, c.call);
    res.status(204).end();
  });

  r.get(`${base}/groups_allowlist`, scope("read"), async (req, res) => {
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    const page = pageRequest(q);
    const list = await ci.ListJobTokenGroupLinks({ projectId: project.id, page: page.page, perPage: page.perPage }, c.call);
    const groups = await Promise.all(list.targetIds.map((id) => visibleGroup(req, Number(id))));
    c.paginate({ total: Number(list.total), ...page });
    res.json(groups.filter((g): g is Group => g !== null).map((g) => allowlistGroupEntity(g, c.urls)));
  });

  r.post(`${base}/groups_allowlist`, scope("write"), async (req, res) => {
    const q = params(req, { target_group_id: p.id("target_group_id not found") });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    const target = await visibleGroup(req, q.target_group_id);
    if (!target) throw notFound("target_group_id not found");
    const link = await ci.AddJobTokenGroupLink({ projectId: project.id, targetId: target.id }, c.call);
    res.status(201).json(groupLinkEntity(Number(link.sourceProjectId), Number(link.targetId)));
  });

  r.delete(`${base}/groups_allowlist/:target_group_id`, scope("write"), async (req, res) => {
    const q = params(req, { target_group_id: p.id("target_group_id not found") });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    const target = await visibleGroup(req, q.target_group_id);
    if (!target) throw notFound("target_group_id not found");
    await ci.RemoveJobTokenGroupLink({ projectId: project.id, targetId: target.id }, c.call);
    res.status(204).end();
  });

  return r;
}
