import type { Request, Response } from "express";
import { Router } from "express";
import type { MergeRequest__Output as MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { p, params, z } from "../../http/params.ts";
import { mergeRequestFull, mergeRequestUserIds, type MergeRequestFullOptions } from "../../entities/merge-request.ts";
import { pipelineBasic, pipelineEntity, type CiUrls } from "../../entities/pipeline.ts";
import { usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";

/**
 * Merge requests (GitLab's lib/api/merge_requests.rb, MergeRequests::CreateService,
 * Entities::MergeRequest), stored in collab-service; the git work (diffs, refs) is repo-service's.
 * Listing, merging, approvals and context commits have their own routers.
 */

const labelList = () => p.array(z.string());
/** "" or 0 clears a milestone or assignee, as Rails casts a blank id. */
const optionalId = () => z.union([p.int(), z.literal("")]).transform((v) => (v === "" ? 0 : v));

/** Options of the single view that the router fills: the head pipeline from ci-service, and what was asked for. */
async function fullOptions(
  deps: GatewayDeps,
  req: Request,
  res: Response,
  mr: MergeRequest,
  asked: { includeDivergedCommitsCount?: boolean; includeRebaseInProgress?: boolean } = {},
): Promise<{ users: Awaited<ReturnType<typeof usersById>>; options: MergeRequestFullOptions }> {
  const c = ctx(deps, req, res);
  const headPipelineId = Number(mr.headPipelineId);
  const pipeline =
    headPipelineId > 0 ? await deps.ci.GetPipeline({ projectId: Number(mr.projectId), pipelineId: headPipelineId }, c.call).catch(() => null) : null;
  const users = await usersById(deps, req, [...mergeRequestUserIds([mr]), ...(pipeline ? [Number(pipeline.userId)] : [])]);
  const ci: CiUrls = { ...c.urls, projectId: Number(mr.projectId), projectPath: mr.projectPath };
  return {
    users,
    options: {
      urls: c.urls,
      context: { kind: "project" },
      headPipeline: pipeline ? pipelineEntity(pipeline, users.get(Number(pipeline.userId)) ?? null, ci) : null,
      pipeline: pipeline ? pipelineBasic(pipeline, ci) : null,
      latestBuildStartedAt: pipeline?.startedAt || null,
      latestBuildFinishedAt: pipeline?.finishedAt || null,
      ...asked,
    },
  };
}

/** Answers one merge request as Entities::MergeRequest. */
export async function sendMergeRequest(
  deps: GatewayDeps,
  req: Request,
  res: Response,
  mr: MergeRequest,
  status = 200,
  asked: { includeDivergedCommitsCount?: boolean; includeRebaseInProgress?: boolean } = {},
): Promise<void> {
  const { users, options } = await fullOptions(deps, req, res, mr, asked);
  res.status(status).json(mergeRequestFull(mr, users, options));
}

export function mergeRequestsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;

  r.post("/projects/:id/merge_requests", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      title: p.string(),
      source_branch: p.ref("source_branch"),
      target_branch: p.ref("target_branch"),
      target_project_id: p.int().optional(),
      description: p.string().optional(),
      assignee_id: optionalId().optional(),
      assignee_ids: p.array(p.int()).optional(),
      reviewer_ids: p.array(p.int()).optional(),
      milestone_id: optionalId().optional(),
      labels: labelList().optional(),
      remove_source_branch: p.bool().optional(),
      allow_collaboration: p.bool().optional(),
      allow_maintainer_to_push: p.bool().optional(),
      squash: p.bool().optional(),
    });
    const c = ctx(deps, req, res);
    const created = await collab.CreateMergeRequest(
      {
        actor: c.actor,
        project: String(req.params.id),
        title: q.title,
        sourceBranch: q.source_branch,
        targetBranch: q.target_branch,
        targetProjectId: q.target_project_id ?? 0,
        description: q.description,
        labels: q.labels ?? [],
        milestoneId: q.milestone_id ?? 0,
        assigneeIds: q.assignee_ids ?? (q.assignee_id ? [q.assignee_id] : []),
        reviewerIds: q.reviewer_ids ?? [],
        removeSourceBranch: q.remove_source_branch,
        squash: q.squash,
        allowCollaboration: q.allow_collaboration ?? q.allow_maintainer_to_push,
      },
      c.call,
    );
    await sendMergeRequest(deps, req, res, created, 201);
  });

  r.get("/projects/:id/merge_requests/:merge_request_iid", scope("read"), async (req, res) => {
    const q = params(req, {
      merge_request_iid: p.id(),
      render_html: p.bool().optional(),
      include_diverged_commits_count: p.bool().optional(),
      include_rebase_in_progress: p.bool().optional(),
    });
    const c = ctx(deps, req, res);
    const mr = await collab.GetMergeRequest(
      {
        actor: c.actor,
        project: String(req.params.id),
        mergeRequestIid: q.merge_request_iid,
        includeDivergedCommitsCount: q.include_diverged_commits_count ?? false,
      },
      c.call,
    );
    await sendMergeRequest(deps, req, res, mr, 200, {
      includeDivergedCommitsCount: q.include_diverged_commits_count,
      includeRebaseInProgress: q.include_rebase_in_progress,
    });
  });

  return r;
}
