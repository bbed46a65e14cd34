import type { Request } from "express";
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { p, params } from "../../http/params.ts";
import { httpCloneUrl, sshCloneUrl, webUrl } from "../../entities/urls.ts";
import { ctx } from "./context.ts";
import { sendMergeRequest } from "./merge-requests.ts";

/**
 * Merging merge requests (lib/api/merge_requests.rb): PUT …/merge (merge now or auto-merge),
 * PUT …/rebase, POST (and the older PUT) …/cancel_merge_when_pipeline_succeeds. collab-service
 * decides and records; repo-service writes the git objects and refs.
 */

/** The caller as git and the push event see them, and the project's URLs (only the gateway knows the external URL). */
async function pusherFor(deps: GatewayDeps, req: Request, c: ReturnType<typeof ctx>) {
  const user = requireUser(req);
  const auth = await deps.identity.Authorize({ actor: c.actor, action: "read_project", project: String(req.params.id) }, c.call);
  const path = auth.project!.pathWithNamespace;
  const urls = c.urls;
  return {
    userName: user.name,
    userUsername: user.username,
    userEmail: user.email,
    webUrl: webUrl(urls, path),
    httpUrl: httpCloneUrl(urls, path),
    sshUrl: sshCloneUrl(urls, path),
  };
}

export function mergeRequestMergesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;

  r.put("/projects/:id/merge_requests/:merge_request_iid/merge", scope("write"), async (req, res) => {
    const q = params(req, {
      merge_request_iid: p.id(),
      merge_commit_message: p.string().optional(),
      squash_commit_message: p.string().optional(),
      should_remove_source_branch: p.bool().optional(),
      merge_when_pipeline_succeeds: p.bool().optional(),
      auto_merge: p.bool().optional(),
      sha: p.string().optional(),
      squash: p.bool().optional(),
    });
    const c = ctx(deps, req, res);
    const pusher = await pusherFor(deps, req, c);
    const mr = await collab.MergeMergeRequest(
      {
        ref: { actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid },
        pusher,
        mergeCommitMessage: q.merge_commit_message,
        squashCommitMessage: q.squash_commit_message,
        shouldRemoveSourceBranch: q.should_remove_source_branch,
        autoMerge: Boolean(q.merge_when_pipeline_succeeds || q.auto_merge),
        sha: q.sha,
        squash: q.squash ?? false,
      },
      c.call,
    );
    await sendMergeRequest(deps, req, res, mr);
  });

  r.put("/projects/:id/merge_requests/:merge_request_iid/rebase", scope("write"), async (req, res) => {
    const q = params(req, { merge_request_iid: p.id(), skip_ci: p.bool().optional() });
    const c = ctx(deps, req, res);
    const pusher = await pusherFor(deps, req, c);
    const answer = await collab.RebaseMergeRequest(
      { ref: { actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid }, pusher, skipCi: q.skip_ci ?? false },
      c.call,
    );
    res.status(202).json({ rebase_in_progress: answer.rebaseInProgress });
  });

  // GitLab answers AutoMergeService#cancel's result hash as it is, with Grape's status for the
  // verb: {"status":"success"}, or the error hash (406 inside, not as the status). POST today; the
  // older PUT is still answered for old clients.
  for (const method of ["post", "put"] as const) {
    r[method]("/projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds", scope("write"), async (req, res) => {
      requireUser(req);
      const q = params(req, { merge_request_iid: p.id() });
      const c = ctx(deps, req, res);
      const result = await collab.CancelAutoMerge({ ref: { actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid } }, c.call);
      const body = result.status === "success" ? { status: "success" } : { message: result.message, status: "error", http_status: result.httpStatus };
      res.status(method === "post" ? 201 : 200).json(body);
    });
  }

  return r;
}
