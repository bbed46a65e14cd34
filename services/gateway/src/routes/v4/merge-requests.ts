import type { Request, Response } from "express";
import { Router } from "express";
import type { MergeRequest__Output as MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { assertNotBlank, p, params, requestParams, z } from "../../http/params.ts";
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

/** GitLab's update_params_at_least_one_of. */
const UPDATE_FIELDS = [
  "assignee_id",
  "assignee_ids",
  "reviewer_ids",
  "description",
  "labels",
  "add_labels",
  "remove_labels",
  "milestone_id",
  "remove_source_branch",
  "allow_collaboration",
  "allow_maintainer_to_push",
  "squash",
  "target_branch",
  "title",
  "state_event",
  "discussion_locked",
];

/** Options of the single view that the router fills: the head pipeline from ci-service, and what was asked for. */
export async function fullOptionsFor(
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
  const { users, options } = await fullOptionsFor(deps, req, res, mr, asked);
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

  r.put("/projects/:id/merge_requests/:merge_request_iid", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      merge_request_iid: p.id(),
      title: p.string().optional(),
      target_branch: p.ref("target_branch").optional(),
      state_event: p.enum(["close", "reopen"]).optional(),
      discussion_locked: p.bool().optional(),
      description: p.string().optional(),
      assignee_id: optionalId().optional(),
      assignee_ids: z.union([p.array(p.int()), z.literal("")]).optional(),
      reviewer_ids: z.union([p.array(p.int()), z.literal("")]).optional(),
      milestone_id: optionalId().optional(),
      labels: labelList().optional(),
      add_labels: labelList().optional(),
      remove_labels: labelList().optional(),
      remove_source_branch: p.bool().optional(),
      allow_collaboration: p.bool().optional(),
      allow_maintainer_to_push: p.bool().optional(),
      squash: p.bool().optional(),
    });
    const raw = requestParams(req);
    if (!UPDATE_FIELDS.some((f) => raw[f] !== undefined || raw[`${f}[]`] !== undefined)) {
      throw new ApiError(400, { error: `${UPDATE_FIELDS.join(", ")} are missing, at least one parameter must be provided` });
    }
    assertNotBlank(q, ["title", "target_branch"]);
    const c = ctx(deps, req, res);
    const assignees = q.assignee_ids !== undefined ? (q.assignee_ids === "" ? [] : q.assignee_ids) : q.assignee_id !== undefined ? [q.assignee_id] : null;
    const reviewers = q.reviewer_ids !== undefined ? (q.reviewer_ids === "" ? [] : q.reviewer_ids) : null;
    const updated = await collab.UpdateMergeRequest(
      {
        actor: c.actor,
        project: String(req.params.id),
        mergeRequestIid: q.merge_request_iid,
        title: q.title,
        description: q.description,
        targetBranch: q.target_branch,
        stateEvent: q.state_event ?? "",
        discussionLocked: q.discussion_locked,
        setLabels: q.labels !== undefined || "labels" in raw,
        labels: q.labels ?? [],
        addLabels: q.add_labels ?? [],
        removeLabels: q.remove_labels ?? [],
        milestoneId: "milestone_id" in raw ? (q.milestone_id ?? 0) : undefined,
        setAssignees: assignees !== null,
        assigneeIds: (assignees ?? []).filter((id) => id > 0),
        setReviewers: reviewers !== null,
        reviewerIds: (reviewers ?? []).filter((id) => id > 0),
        removeSourceBranch: q.remove_source_branch,
        squash: q.squash,
        allowCollaboration: q.allow_collaboration ?? q.allow_maintainer_to_push,
      },
      c.call,
    );
    await sendMergeRequest(deps, req, res, updated);
  });

  r.delete("/projects/:id/merge_requests/:merge_request_iid", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { merge_request_iid: p.id() });
    const c = ctx(deps, req, res);
    await collab.DeleteMergeRequest({ actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid }, c.call);
    res.status(204).end();
  });

  return r;
}
