import type { MergeRequest__Output as MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { MergeRequestVersion__Output as MergeRequestVersion } from "@quarry/proto/types/collab/v1/MergeRequestVersion";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { humanTime, labelBasicEntity, taskCompletion, type IssueContext } from "./issue.ts";
import { milestoneEntity } from "./milestone.ts";
import { apiUrl, orNull, type Urls } from "./urls.ts";
import { userBasic } from "./user.ts";

/** Where a merge request is shown from (references.relative is relative to it), and how. */
export interface MergeRequestContext {
  urls: Urls;
  /** The project, group or instance list (or single view) the merge request is shown in. */
  context: IssueContext;
  /** with_labels_details: LabelBasic objects instead of titles. */
  withLabelsDetails?: boolean;
}

/** What the single view adds beyond the list item (Entities::MergeRequest), rendered by the router. */
export interface MergeRequestFullOptions extends MergeRequestContext {
  /** Entities::Ci::Pipeline of the head pipeline, or null; undefined leaves it out (no read_pipeline). */
  headPipeline?: Record<string, unknown> | null;
  /** Entities::Ci::PipelineBasic of the metrics pipeline, or null. */
  pipeline?: Record<string, unknown> | null;
  /** Head pipeline start/finish times (metrics' latest_build_*). */
  latestBuildStartedAt?: string | null;
  latestBuildFinishedAt?: string | null;
  /** include_diverged_commits_count. */
  includeDivergedCommitsCount?: boolean;
  /** include_rebase_in_progress. */
  includeRebaseInProgress?: boolean;
}

/** MergeRequest#to_reference from a project: `!iid`. */
const shortReference = (mr: MergeRequest) => `!${mr.iid}`;

/** IssuableReferences' relative reference: `!1` in its project, `project!1` in its group, full path elsewhere. */
function relativeReference(mr: MergeRequest, context: IssueContext): string {
  const short = shortReference(mr);
  if (context.kind !== "group") return short;
  const path = mr.projectPath;
  const namespace = path.slice(0, path.lastIndexOf("/"));
  return namespace === context.fullPath ? `${path.slice(path.lastIndexOf("/") + 1)}${short}` : `${path}${short}`;
}

/** A merge request's web page. */
export const mergeRequestWebUrl = (urls: Urls, mr: Pick<MergeRequest, "projectPath" | "iid">) => `${urls.base}/${mr.projectPath}/-/merge_requests/${mr.iid}`;

/** The users a page of merge requests shows: authors, assignees, reviewers, closers, mergers. */
export const mergeRequestUserIds = (mrs: readonly MergeRequest[]): number[] =>
  mrs.flatMap((m) => [Number(m.authorId), Number(m.closedById), Number(m.mergeUserId), ...m.assigneeIds.map(Number), ...m.reviewerIds.map(Number)]);

/** Entities::MergeRequestSimple (view=simple). */
export function mergeRequestSimple(mr: MergeRequest, urls: Urls) {
  return {
    id: Number(mr.id),
    iid: Number(mr.iid),
    project_id: Number(mr.projectId),
    title: mr.title,
    description: mr.description ?? null,
    state: mr.state,
    created_at: mr.createdAt,
    updated_at: mr.updatedAt,
    web_url: mergeRequestWebUrl(urls, mr),
  };
}

/**
 * Entities::MergeRequestBasic, in GitLab's order (IssuableEntity's fields, then the merge request
 * ones); users come from one GetUsers call per page. allow_collaboration and
 * allow_maintainer_to_push are shown for every merge request (document 2 lists them; GitLab shows
 * them for forks only, and Quarry has none).
 */
export function mergeRequestBasic(mr: MergeRequest, users: Map<number, User>, ctx: MergeRequestContext) {
  const { urls } = ctx;
  const user = (id: number | string) => {
    const u = users.get(Number(id));
    return u ? userBasic(u, urls) : null;
  };
  const assignees = mr.assigneeIds.map(user).filter((u) => u !== null);
  const mergeUser = Number(mr.mergeUserId) > 0 ? user(mr.mergeUserId) : null;
  return {
    id: Number(mr.id),
    iid: Number(mr.iid),
    project_id: Number(mr.projectId),
    title: mr.title,
    description: mr.description ?? null,
    state: mr.state,
    created_at: mr.createdAt,
    updated_at: mr.updatedAt,
    merged_by: mr.state === "merged" ? mergeUser : null,
    merge_user: mergeUser,
    merged_at: orNull(mr.mergedAt),
    closed_by: Number(mr.closedById) > 0 ? user(mr.closedById) : null,
    closed_at: orNull(mr.closedAt),
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    user_notes_count: Number(mr.userNotesCount),
    upvotes: Number(mr.upvotes),
    downvotes: Number(mr.downvotes),
    author: user(mr.authorId),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: mr.reviewerIds.map(user).filter((u) => u !== null),
    source_project_id: Number(mr.sourceProjectId),
    target_project_id: Number(mr.targetProjectId),
    labels: ctx.withLabelsDetails ? mr.labels.map(labelBasicEntity) : mr.labels.map((l) => l.name),
    draft: mr.draft,
    imported: false,
    imported_from: "none",
    work_in_progress: mr.draft,
    milestone: mr.milestone ? milestoneEntity(mr.milestone, urls) : null,
    merge_when_pipeline_succeeds: mr.mergeWhenPipelineSucceeds,
    merge_status: mr.mergeStatus,
    detailed_merge_status: mr.detailedMergeStatus,
    merge_after: orNull(mr.mergeAfter),
    sha: orNull(mr.sha),
    merge_commit_sha: orNull(mr.mergeCommitSha),
    squash_commit_sha: orNull(mr.squashCommitSha),
    discussion_locked: mr.discussionLocked ?? null,
    should_remove_source_branch: mr.shouldRemoveSourceBranch ?? null,
    force_remove_source_branch: mr.forceRemoveSourceBranch,
    prepared_at: orNull(mr.preparedAt),
    allow_collaboration: mr.allowCollaboration,
    allow_maintainer_to_push: mr.allowCollaboration,
    reference: shortReference(mr),
    references: { short: shortReference(mr), relative: relativeReference(mr, ctx.context), full: `${mr.projectPath}${shortReference(mr)}` },
    web_url: mergeRequestWebUrl(urls, mr),
    time_stats: {
      time_estimate: Number(mr.timeEstimate),
      total_time_spent: Number(mr.totalTimeSpent),
      human_time_estimate: humanTime(Number(mr.timeEstimate)),
      human_total_time_spent: humanTime(Number(mr.totalTimeSpent)),
    },
    squash: mr.squash,
    // squash_on_merge?: the project's squash option "always" forces it (helper E's merge settings).
    squash_on_merge: mr.squash,
    task_completion_status: taskCompletion(mr.description),
    has_conflicts: mr.hasConflicts,
    blocking_discussions_resolved: mr.blockingDiscussionsResolved,
  };
}

/**
 * Entities::MergeRequest (the single view, and the answers of create, update, merge…): the list
 * item, then subscribed, changes_count, the pipeline fields, diff_refs, merge_error, the optional
 * counts, first_contribution and user.can_merge.
 */
export function mergeRequestFull(mr: MergeRequest, users: Map<number, User>, o: MergeRequestFullOptions) {
  return {
    ...mergeRequestBasic(mr, users, o),
    subscribed: mr.subscribed,
    changes_count: mr.changesCount || null,
    latest_build_started_at: o.latestBuildStartedAt ?? null,
    latest_build_finished_at: o.latestBuildFinishedAt ?? null,
    first_deployed_to_production_at: null,
    pipeline: o.pipeline ?? null,
    ...(o.headPipeline !== undefined ? { head_pipeline: o.headPipeline } : {}),
    diff_refs: mr.diffRefs ? { base_sha: mr.diffRefs.baseSha, head_sha: mr.diffRefs.headSha, start_sha: mr.diffRefs.startSha } : null,
    merge_error: orNull(mr.mergeError),
    ...(o.includeRebaseInProgress ? { rebase_in_progress: mr.rebaseInProgress } : {}),
    ...(o.includeDivergedCommitsCount ? { diverged_commits_count: Number(mr.divergedCommitsCount) } : {}),
    first_contribution: mr.firstContribution,
    user: { can_merge: mr.canMerge },
  };
}

/** The API URL of a merge request (for _links-style fields of other entities). */
export const mergeRequestApiUrl = (urls: Urls, mr: Pick<MergeRequest, "projectId" | "iid">) =>
  apiUrl(urls, `projects/${Number(mr.projectId)}/merge_requests/${mr.iid}`);

/** Entities::MergeRequestDiff: one diff version in the /versions list. */
export function mergeRequestVersionEntity(v: MergeRequestVersion) {
  return {
    id: Number(v.id),
    head_commit_sha: v.headCommitSha,
    base_commit_sha: v.baseCommitSha,
    start_commit_sha: v.startCommitSha,
    created_at: v.createdAt,
    merge_request_id: Number(v.mergeRequestId),
    state: v.state,
    real_size: v.realSize || null,
    patch_id_sha: v.patchIdSha || null,
  };
}
