// GitLab's merge request webhook event (Gitlab::DataBuilder::Issuable for a MergeRequest, with
// MergeRequests::BaseService#execute_hooks' action), enqueued in the transaction of the change.
// hook-service adds what needs identity (user, project, source/target, assignees, reviewers).
import { Subjects, type HookChange } from "@quarry/bus";
import type { CollabDeps, Tx } from "../deps.ts";
import { humanTime, labelHookAttrs } from "../events/hook-attrs.ts";
import { enqueue, hookTime } from "../events/outbox.ts";
import type { Label, MergeRequest } from "../generated/prisma/client.ts";
import type { MergeRequestScope } from "./access.ts";
import { mergeRequestInclude, type MergeRequestRowFull } from "./entity.ts";
import { listMergeStatuses } from "./merge-status.ts";

/** A merge request as it was before a change: the row, its labels (by id), assignees and reviewers. */
export interface MergeRequestSnapshot {
  mr: MergeRequest;
  labels: Label[];
  assigneeIds: number[];
  reviewerIds: number[];
}

export type MergeRequestAction = "open" | "close" | "reopen" | "update" | "merge" | "approved" | "unapproved" | "approval" | "unapproval";

/** Reads a snapshot inside the change's transaction, before changing anything. */
export async function mergeRequestSnapshot(db: CollabDeps["prisma"] | Tx, id: number): Promise<MergeRequestSnapshot> {
  const row = await db.mergeRequest.findUniqueOrThrow({ where: { id }, include: mergeRequestInclude });
  return snapshotOf(row);
}

function snapshotOf(row: MergeRequestRowFull): MergeRequestSnapshot {
  return {
    mr: row,
    labels: row.labels.map((l) => l.label).sort((a, b) => a.id - b.id),
    assigneeIds: row.assignees.map((a) => a.userId),
    reviewerIds: row.reviewers.map((r) => r.userId),
  };
}

/** GitLab's state_id. */
const STATE_IDS: Record<string, number> = { opened: 1, closed: 2, merged: 3, locked: 4 };

/** A merge request's web page, below the external URL. */
export const mergeRequestWebPath = (projectPath: string, iid: number) => `/${projectPath}/-/merge_requests/${iid}`;

/**
 * MergeRequestBuilder.safe_hook_attributes in the table's column order (GitLab slices the
 * record's attributes, so they come in that order).
 */
function hookColumns(mr: MergeRequest, assigneeIds: readonly number[], headPipelineId: number) {
  return {
    id: mr.id,
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    source_project_id: mr.sourceProjectId,
    author_id: mr.authorId,
    assignee_id: assigneeIds[0] ?? null,
    title: mr.title,
    created_at: hookTime(mr.createdAt),
    updated_at: hookTime(mr.updatedAt),
    milestone_id: mr.milestoneId,
    merge_status: mr.mergeStatus,
    target_project_id: mr.projectId,
    iid: mr.iid,
    description: mr.description,
    updated_by_id: mr.updatedById,
    merge_error: mr.mergeError,
    merge_params: { force_remove_source_branch: mr.forceRemoveSourceBranch ? "1" : "0" },
    merge_when_pipeline_succeeds: mr.mergeWhenPipelineSucceeds,
    merge_user_id: mr.mergeUserId,
    merge_commit_sha: mr.mergeCommitSha,
    time_estimate: mr.timeEstimate,
    last_edited_at: hookTime(mr.lastEditedAt),
    last_edited_by_id: mr.lastEditedById,
    head_pipeline_id: headPipelineId || null,
    state_id: STATE_IDS[mr.state] ?? 1,
    draft: mr.draft,
    prepared_at: hookTime(mr.preparedAt),
  };
}

type HookColumns = Record<keyof ReturnType<typeof hookColumns>, unknown>;

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The webhook's `changes`: every hook column that differs from `before` (a new merge request
 * changes them all from null), then for an existing one assignees, reviewers, labels and
 * total_time_spent (hook_association_changes).
 */
export function mergeRequestChanges(before: MergeRequestSnapshot | null, after: MergeRequestSnapshot, headPipelineId: number): Record<string, HookChange> {
  const now: HookColumns = hookColumns(after.mr, after.assigneeIds, headPipelineId);
  const old: Partial<HookColumns> = before ? hookColumns(before.mr, before.assigneeIds, headPipelineId) : {};
  const changes: Record<string, HookChange> = {};
  for (const key of Object.keys(now) as (keyof HookColumns)[]) {
    if (key === "merge_params") continue;
    const previous = before ? old[key] : key === "draft" || key === "merge_when_pipeline_succeeds" ? false : key === "time_estimate" ? 0 : null;
    if (JSON.stringify(previous) !== JSON.stringify(now[key])) changes[key] = { previous: previous ?? null, current: now[key] };
  }
  if (!before) return changes;
  if (!sameIds(before.assigneeIds, after.assigneeIds)) changes.assignees = { previous: before.assigneeIds, current: after.assigneeIds };
  if (!sameIds(before.reviewerIds, after.reviewerIds)) changes.reviewers = { previous: before.reviewerIds, current: after.reviewerIds };
  if (
    !sameIds(
      before.labels.map((l) => l.id),
      after.labels.map((l) => l.id),
    )
  ) {
    changes.labels = { previous: before.labels.map(labelHookAttrs), current: after.labels.map(labelHookAttrs) };
  }
  if (before.mr.totalTimeSpent !== after.mr.totalTimeSpent) changes.total_time_spent = { previous: before.mr.totalTimeSpent, current: after.mr.totalTimeSpent };
  return changes;
}

export interface MergeRequestEventInput {
  mergeRequestId: number;
  scope: MergeRequestScope;
  action: MergeRequestAction;
  /** Null for "open". */
  before: MergeRequestSnapshot | null;
  actorUserId: number;
  /** Usernames of the assignees (the `ci` block's CI_MERGE_REQUEST_ASSIGNEES). */
  usernames: ReadonlyMap<number, string>;
  /** The head before a push (update by a push). */
  oldrev?: string;
  /** Commit#hook_attrs of the head, when the caller read it. */
  lastCommit?: Record<string, unknown> | null;
}

/**
 * MergeRequest#hook_attrs (Gitlab::HookData::MergeRequestBuilder#build): the hook columns, then
 * url, last_commit, draft and time tracking, assignee/reviewer ids, labels, state, first
 * contribution and detailed_merge_status. Also the `merge_request` of note events.
 */
export async function mergeRequestHookAttrs(tx: Tx, row: MergeRequestRowFull, scope: MergeRequestScope, lastCommit: Record<string, unknown> | null) {
  const after = snapshotOf(row);
  const mr = row;
  // Hooks show the cached merge status, as GitLab's hook data does: building one runs no mergeability check.
  const status = (await listMergeStatuses(tx, [row], () => scope.project))[0]!;
  const projectPath = scope.parent.fullPath;
  const mergedBefore = await tx.mergeRequest.count({ where: { projectId: mr.projectId, authorId: mr.authorId, state: "merged", id: { not: mr.id } } });
  const columns = hookColumns(mr, after.assigneeIds, status.headPipelineId);
  const labels = [...after.labels].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  const attrs = {
    ...columns,
    url: mergeRequestWebPath(projectPath, mr.iid),
    last_commit: lastCommit,
    work_in_progress: mr.draft,
    total_time_spent: mr.totalTimeSpent,
    time_change: 0,
    human_total_time_spent: humanTime(mr.totalTimeSpent),
    human_time_change: null,
    human_time_estimate: humanTime(mr.timeEstimate),
    assignee_ids: after.assigneeIds,
    reviewer_ids: after.reviewerIds,
    labels: labels.map(labelHookAttrs),
    state: mr.state,
    blocking_discussions_resolved: status.blockingDiscussionsResolved,
    first_contribution: mergedBefore === 0,
    detailed_merge_status: status.detailedMergeStatus,
  };
  return { attrs, after, labels, status };
}

/** Enqueues the merge request webhook event inside `tx`; call `publishSoon(deps)` after the commit. */
export async function enqueueMergeRequestEvent(tx: Tx, input: MergeRequestEventInput): Promise<string> {
  const row = await tx.mergeRequest.findUniqueOrThrow({ where: { id: input.mergeRequestId }, include: mergeRequestInclude });
  const mr = row;
  const built = await mergeRequestHookAttrs(tx, row, input.scope, input.lastCommit ?? null);
  const { after, labels, status } = built;
  const attrs = { ...built.attrs, action: input.action, ...(input.oldrev ? { oldrev: input.oldrev } : {}) };
  const diff = row.diffs[0];
  return enqueue(tx, Subjects.mergeRequest, {
    event_name: "merge_request",
    object_kind: "merge_request",
    event_type: "merge_request",
    user_id: input.actorUserId,
    project_id: mr.projectId,
    object_attributes: attrs,
    labels: labels.map(labelHookAttrs),
    changes: mergeRequestChanges(input.before, after, status.headPipelineId),
    assignee_ids: after.assigneeIds,
    reviewer_ids: after.reviewerIds,
    ci: {
      head_sha: mr.headSha ?? "",
      diff_base_sha: diff?.baseCommitSha ?? "",
      title: mr.title,
      description: mr.description ?? "",
      labels: labels.map((l) => l.title),
      assignee_usernames: after.assigneeIds.map((id) => input.usernames.get(id) ?? "").filter(Boolean),
      milestone_title: row.milestone?.title ?? null,
      draft: mr.draft,
    },
  });
}

/** Commit#hook_attrs of a commit of the project (id, message, title, timestamp, url, author). */
export async function lastCommitHookAttrs(deps: CollabDeps, scope: MergeRequestScope, sha: string | null): Promise<Record<string, unknown> | null> {
  if (!sha) return null;
  try {
    const c = await deps.repo.FindCommit({ diskPath: scope.project.diskPath, revision: sha });
    const commit = c.commit!;
    return {
      id: commit.id,
      message: commit.message,
      title: commit.title,
      timestamp: commit.authoredDate,
      url: `/${scope.parent.fullPath}/-/commit/${commit.id}`,
      author: { name: commit.authorName, email: commit.authorEmail },
    };
  } catch {
    return null;
  }
}
