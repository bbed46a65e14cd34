// GitLab's issue webhook event (Gitlab::DataBuilder::Issuable for an Issue, with Issues::BaseService's
// action), enqueued in the transaction of the change. The caller takes an `issueSnapshot` before
// changing an existing issue and passes it as `before`; the changes are the difference, as GitLab's
// reportable_changes + hook_association_changes give them.
import { Subjects, type HookChange } from "@quarry/bus";
import type { CollabDeps, Tx } from "../deps.ts";
import type { Issue, Label } from "../generated/prisma/client.ts";
import { issueHookAttrs, labelHookAttrs } from "./hook-attrs.ts";
import { enqueue, hookTime } from "./outbox.ts";

/** An issue as it was before a change: the row, its labels and its assignees' ids. */
export interface IssueSnapshot {
  issue: Issue;
  /** By label id. */
  labels: Label[];
  /** Ascending. */
  assigneeIds: number[];
}

export type IssueAction = "open" | "close" | "reopen" | "update";

/** Reads an issue's snapshot (call it inside the change's transaction, before changing anything). */
export async function issueSnapshot(db: CollabDeps["prisma"] | Tx, issueId: number): Promise<IssueSnapshot> {
  const [issue, labels, assignees] = await Promise.all([
    db.issue.findUniqueOrThrow({ where: { id: issueId } }),
    db.issueLabel.findMany({ where: { issueId }, include: { label: true }, orderBy: { labelId: "asc" } }),
    db.issueAssignee.findMany({ where: { issueId }, orderBy: { userId: "asc" } }),
  ]);
  return { issue, labels: labels.map((l) => l.label), assigneeIds: assignees.map((a) => a.userId) };
}

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/**
 * The issue's columns among IssueBuilder.safe_hook_attributes, in that order (GitLab slices the
 * changes by it), as hook data shows them; columns Quarry does not keep (assignee_id,
 * last_edited_*, moved_to_id, duplicated_to_id, relative_position) never change.
 */
function hookColumns(issue: Issue) {
  return {
    author_id: issue.authorId,
    closed_at: hookTime(issue.closedAt),
    confidential: issue.confidential,
    created_at: hookTime(issue.createdAt),
    description: issue.description,
    discussion_locked: issue.discussionLocked,
    due_date: day(issue.dueDate),
    id: issue.id,
    iid: issue.iid,
    milestone_id: issue.milestoneId,
    project_id: issue.projectId,
    state_id: issue.state === "closed" ? 2 : 1,
    time_estimate: issue.timeEstimate,
    title: issue.title,
    updated_at: hookTime(issue.updatedAt),
    updated_by_id: issue.updatedById,
  };
}

type HookColumns = Record<keyof ReturnType<typeof hookColumns>, unknown>;

/** The columns of a new record before its insert (GitLab's column defaults): a creation changes every other one. */
const NEW_ISSUE: HookColumns = {
  author_id: null,
  closed_at: null,
  confidential: false,
  created_at: null,
  description: null,
  discussion_locked: null,
  due_date: null,
  id: null,
  iid: null,
  milestone_id: null,
  project_id: null,
  state_id: 1,
  time_estimate: 0,
  title: null,
  updated_at: null,
  updated_by_id: null,
};

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * GitLab's `changes` of an issue webhook: `{field: {previous, current}}` for every column that
 * differs from `before` (from the column defaults for a new issue), then — for an existing issue —
 * assignees (user ids here; hook-service expands them to User#hook_attrs), labels (Label#hook_attrs)
 * and total_time_spent.
 */
export function issueChanges(before: IssueSnapshot | undefined, after: { issue: Issue; labels: Label[]; assigneeIds: number[] }): Record<string, HookChange> {
  const changes: Record<string, HookChange> = {};
  const old: HookColumns = before ? hookColumns(before.issue) : NEW_ISSUE;
  const now: HookColumns = hookColumns(after.issue);
  for (const key of Object.keys(now) as (keyof HookColumns)[]) {
    if (old[key] !== now[key]) changes[key] = { previous: old[key], current: now[key] };
  }
  // Issues::CreateService passes no old associations: a new issue's labels and assignees are not changes.
  if (!before) return changes;
  if (!sameIds(before.assigneeIds, after.assigneeIds)) changes.assignees = { previous: before.assigneeIds, current: after.assigneeIds };
  if (
    !sameIds(
      before.labels.map((l) => l.id),
      after.labels.map((l) => l.id),
    )
  ) {
    changes.labels = { previous: before.labels.map(labelHookAttrs), current: after.labels.map(labelHookAttrs) };
  }
  if (before.issue.totalTimeSpent !== after.issue.totalTimeSpent) {
    changes.total_time_spent = { previous: before.issue.totalTimeSpent, current: after.issue.totalTimeSpent };
  }
  return changes;
}

export interface IssueEventInput {
  /** The issue changed (re-read inside `tx`, so it is the row as committed). */
  issue: Pick<Issue, "id">;
  /** The project's full path (ResolvedParent.fullPath), for the web URLs. */
  projectPath: string;
  /** Issues::CreateService "open", CloseService "close", ReopenService "reopen", UpdateService "update". */
  action: IssueAction;
  /** The issue before the change (`issueSnapshot` inside the same transaction); omitted for "open". */
  before?: IssueSnapshot;
  /** Who made the change (GitLab's current_user). */
  actorUserId: number;
}

/**
 * Enqueues the issue webhook event inside `tx`; call `publishSoon(deps)` after the commit. The
 * event is confidential when the issue is (after the change), as GitLab picks the hooks scope.
 */
export async function enqueueIssueEvent(tx: Tx, input: IssueEventInput): Promise<string> {
  const after = await issueSnapshot(tx, input.issue.id);
  const attrs = await issueHookAttrs(tx, after.issue, input.projectPath);
  return enqueue(tx, Subjects.issue, {
    event_name: "issue",
    object_kind: "issue",
    event_type: after.issue.confidential ? "confidential_issue" : "issue",
    user_id: input.actorUserId,
    project_id: after.issue.projectId,
    object_attributes: { ...attrs, action: input.action },
    labels: after.labels.map(labelHookAttrs),
    changes: issueChanges(input.before, after),
    assignee_ids: after.assigneeIds,
  });
}
