import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { VISIBILITIES } from "@quarry/gitlab";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { projectFull, projectSimple } from "../../entities/project.ts";
import { starrerEntity } from "../../entities/starrer.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { notFound } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { repositoryStorageNames } from "./repository-storage-moves.ts";
import { ctx } from "./context.ts";
import { customAttributesFor, withCustomAttributes } from "./custom-attributes.ts";
import { runnersTokenFor } from "./project-runners-token.ts";
import { listProjectsRequest, projectListShape } from "./projects.ts";

/** GitLab's find_user: a numeric id, else a username (case-insensitive). */
async function findUser(deps: GatewayDeps, c: ReturnType<typeof ctx>, idOrUsername: string) {
  // identity-service answers 404 User Not Found for an unknown id.
  if (/^\d+$/.test(idOrUsername)) return deps.identity.GetUser({ actor: c.actor, id: Number(idOrUsername) }, c.call);
  const { users } = await deps.identity.ListUsers({ actor: c.actor, username: idOrUsername, page: { page: 1, perPage: 1 } }, c.call);
  const user = users.find((u) => u.username.toLowerCase() === idOrUsername.toLowerCase());
  if (!user) throw notFound("User");
  return user;
}

/**
 * Starring (GitLab's lib/api/projects.rb star/unstar/starrers and users' starred_projects).
 * Star and unstar answer 201 with the project, or 304 Not Modified with no body when nothing changed.
 */
export function starsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  const respond = async (req: Request, res: Response, c: ReturnType<typeof ctx>, project: Project, changed: boolean) => {
    if (!changed) {
      res.status(304).end();
      return;
    }
    const info = await deps.repo.GetRepositoryInfo({ diskPath: project.diskPath }, c.call);
    const runnersToken = await runnersTokenFor(deps, req, project);
    const [repositoryStorage] = req.principal?.isAdmin ? await repositoryStorageNames(deps, req, [project.diskPath]) : [];
    res
      .status(201)
      .json(projectFull(project, c.urls, { emptyRepo: info.empty, admin: req.principal?.isAdmin, license: true, runnersToken, repositoryStorage }));
  };

  r.post("/projects/:id/star", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string() });
    const c = ctx(deps, req, res);
    const { project, changed } = await identity.StarProject({ actor: c.actor, idOrPath: q.id }, c.call);
    await respond(req, res, c, project!, changed);
  });

  r.post("/projects/:id/unstar", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string() });
    const c = ctx(deps, req, res);
    const { project, changed } = await identity.UnstarProject({ actor: c.actor, idOrPath: q.id }, c.call);
    await respond(req, res, c, project!, changed);
  });

  r.get("/projects/:id/starrers", scope("read"), async (req, res) => {
    const q = params(req, { ...pageShape, id: p.string(), search: p.searchTerm("search").optional() });
    const c = ctx(deps, req, res);
    const result = await identity.ListStarrers({ actor: c.actor, idOrPath: q.id, search: q.search ?? "", page: pageRequest(q) }, c.call);
    c.paginate(result.pageInfo);
    res.json(result.starrers.map((s) => starrerEntity(s, c.urls)));
  });

  r.get("/users/:user_id/starred_projects", scope("read"), async (req, res) => {
    const q = params(req, {
      ...projectListShape,
      user_id: p.string(),
      membership: p.bool().optional(),
      with_custom_attributes: p.bool().optional(),
      visibility: p.enum(VISIBILITIES).optional(),
    });
    const c = ctx(deps, req, res);
    const user = await findUser(deps, c, q.user_id);
    // StarredProjectsFinder: a private profile's stars are its owner's and administrators' to see.
    const hidden = user.privateProfile && !c.actor.isAdmin && c.actor.userId !== Number(user.id);
    // with_issues_enabled / with_merge_requests_enabled (projectListShape) keep every project:
    // both features are on in all of them.
    const none = hidden;
    const result = await identity.ListProjects(
      { ...listProjectsRequest(q, null), actor: c.actor, membership: q.membership ?? false, starredByUserId: none ? -1 : Number(user.id) },
      c.call,
    );
    c.paginate(result.pageInfo);
    // Anonymous callers and simple=true get the basic representation, as in GitLab.
    const simple = q.simple || !req.principal;
    const admin = req.principal?.isAdmin;
    // with_custom_attributes is for administrators.
    const custom = await customAttributesFor(
      deps,
      req,
      "project",
      result.projects.map((pr) => pr.id),
      q.with_custom_attributes,
    );
    res.json(
      result.projects.map((pr) => ({
        ...(simple ? projectSimple(pr, c.urls) : projectFull(pr, c.urls, { statistics: q.statistics, admin })),
        ...withCustomAttributes(custom, pr.id),
      })),
    );
  });

  return r;
}
