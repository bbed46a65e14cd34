import type { Request } from "express";
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { contextCommitEntity, createdContextCommitEntity } from "../../entities/context-commit.ts";
import { webUrl } from "../../entities/urls.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, requestParams, z } from "../../http/params.ts";
import { ctx } from "./context.ts";

/**
 * Merge request context commits (GitLab's lib/api/merge_requests.rb context_commits routes,
 * MergeRequests::AddContextService), stored in collab-service: reading follows the merge request's
 * visibility, attaching and detaching need a signed-in user with update_merge_request.
 */
const BASE = "/projects/:id/merge_requests/:merge_request_iid/context_commits";

/** `requires :commits, type: Array[String], allow_blank: false`: missing, then empty, are 400s. */
function commitsParam(req: Request): string[] {
  const q = params(req, { merge_request_iid: p.id(), commits: p.array(z.union([z.string(), z.number()]).transform(String)) });
  const raw = requestParams(req).commits;
  if (!q.commits.length || (typeof raw === "string" && raw.trim() === "")) throw new ApiError(400, { error: "commits is empty" });
  return q.commits;
}

export function mergeRequestContextCommitsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;
  const ref = (req: Request, actor: ReturnType<typeof ctx>["actor"], iid: number) => ({ actor, project: String(req.params.id), mergeRequestIid: iid });

  r.get(BASE, scope("read"), async (req, res) => {
    const q = params(req, { merge_request_iid: p.id(), ...pageShape });
    const c = ctx(deps, req, res);
    const page = pageRequest(q);
    const list = await collab.ListMergeRequestContextCommits({ mergeRequest: ref(req, c.actor, q.merge_request_iid), page }, c.call);
    c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
    res.json(list.commits.map(contextCommitEntity));
  });

  r.post(BASE, scope("write"), async (req, res) => {
    requireUser(req);
    const commits = commitsParam(req);
    const c = ctx(deps, req, res);
    const iid = Number(req.params.merge_request_iid);
    const created = await collab.CreateMergeRequestContextCommits({ mergeRequest: ref(req, c.actor, iid), commits }, c.call);
    const web = webUrl(c.urls, created.projectPath);
    res.status(201).json(created.commits.map((commit) => createdContextCommitEntity(commit, web)));
  });

  r.delete(BASE, scope("write"), async (req, res) => {
    requireUser(req);
    const commits = commitsParam(req);
    const c = ctx(deps, req, res);
    await collab.DeleteMergeRequestContextCommits({ mergeRequest: ref(req, c.actor, Number(req.params.merge_request_iid)), commits }, c.call);
    res.status(204).end();
  });

  return r;
}
