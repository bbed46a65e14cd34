import { labelTextColor } from "@quarry/gitlab";
import type { Issue__Output as Issue } from "@quarry/proto/types/collab/v1/Issue";
import type { IssueResourceEvent__Output as IssueResourceEvent } from "@quarry/proto/types/collab/v1/IssueResourceEvent";
import type { Label__Output as Label } from "@quarry/proto/types/collab/v1/Label";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { milestoneEntity } from "./milestone.ts";
import { apiUrl, type Urls } from "./urls.ts";
import { userBasic } from "./user.ts";

/** Where an issue is shown from: references are relative to it (IssuableReferences). */
export type IssueContext = { kind: "project" } | { kind: "group"; fullPath: string } | { kind: "instance" };

export interface IssueOptions {
  /** with_labels_details: label objects instead of names. */
  withLabelsDetails?: boolean;
  /** Single-issue answers carry `subscribed` (GitLab's include_subscribed); lists do not. */
  includeSubscribed?: boolean;
  context: IssueContext;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GitLab's Entities::LabelBasic (an issue's label with with_labels_details). */
export function labelBasicEntity(l: Label) {
  return {
    id: Number(l.id),
    name: l.name,
    color: l.color,
    description: l.description ?? null,
    description_html: l.description ? escapeHtml(l.description) : "",
    text_color: labelTextColor(l.color),
  };
}

// GitLab's TaskList item syntax: a list marker, then `[ ]` or `[x]`.
const TASK_ITEM = /^[ \t]*(?:[-+*]|\d+[.)])[ \t]+\[([ xX])\](?=[ \t]|$)/gm;

/** task_completion_status: the Markdown task list items of the description, and the checked ones. */
export function taskCompletion(description: string | null | undefined): { count: number; completed_count: number } {
  let count = 0;
  let completed = 0;
  for (const m of (description ?? "").matchAll(TASK_ITEM)) {
    count++;
    if (m[1] !== " ") completed++;
  }
  return { count, completed_count: completed };
}

/**
 * Gitlab::TimeTrackingFormatter.output: weeks of 5 days, days of 8 hours, "1w 2d 3h 4m 5s";
 * null for no time.
 */
export function humanTime(seconds: number): string | null {
  if (!seconds) return null;
  const units: [string, number][] = [
    ["mo", 4 * 5 * 8 * 3600],
    ["w", 5 * 8 * 3600],
    ["d", 8 * 3600],
    ["h", 3600],
    ["m", 60],
    ["s", 1],
  ];
  let rest = Math.abs(seconds);
  const parts: string[] = [];
  for (const [unit, size] of units) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return `${seconds < 0 ? "-" : ""}${parts.join(" ")}`;
}

/** Project#to_reference_base as IssuableReferences' relative reference uses it. */
function relativeReference(i: Issue, context: IssueContext): string {
  const short = `#${i.iid}`;
  if (context.kind !== "group") return short;
  const path = i.projectPath;
  const namespace = path.slice(0, path.lastIndexOf("/"));
  return namespace === context.fullPath ? `${path.slice(path.lastIndexOf("/") + 1)}${short}` : `${path}${short}`;
}

/** GitLab's Entities::Issue (16.x/17.x); users come from one GetUsers call per page. */
export function issueEntity(i: Issue, users: Map<number, User>, urls: Urls, o: IssueOptions) {
  const user = (id: number | string) => {
    const u = users.get(Number(id));
    return u ? userBasic(u, urls) : null;
  };
  const assignees = i.assigneeIds.map(user).filter((u) => u !== null);
  const tasks = taskCompletion(i.description);
  const projectId = Number(i.projectId);
  const self = apiUrl(urls, `projects/${projectId}/issues/${i.iid}`);
  return {
    id: Number(i.id),
    iid: Number(i.iid),
    project_id: projectId,
    title: i.title,
    description: i.description ?? null,
    state: i.state,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.closedAt ?? null,
    closed_by: Number(i.closedById) > 0 ? user(i.closedById) : null,
    labels: o.withLabelsDetails ? i.labels.map(labelBasicEntity) : i.labels.map((l) => l.name),
    milestone: i.milestone ? milestoneEntity(i.milestone, urls) : null,
    assignees,
    author: user(i.authorId),
    type: "ISSUE",
    assignee: assignees[0] ?? null,
    user_notes_count: Number(i.userNotesCount),
    merge_requests_count: 0,
    upvotes: Number(i.upvotes),
    downvotes: Number(i.downvotes),
    due_date: i.dueDate ?? null,
    confidential: i.confidential,
    discussion_locked: i.discussionLocked ?? null,
    issue_type: i.issueType,
    web_url: `${urls.base}/${i.projectPath}/-/issues/${i.iid}`,
    time_stats: {
      time_estimate: Number(i.timeEstimate),
      total_time_spent: Number(i.totalTimeSpent),
      human_time_estimate: humanTime(Number(i.timeEstimate)),
      human_total_time_spent: humanTime(Number(i.totalTimeSpent)),
    },
    task_completion_status: tasks,
    blocking_issues_count: 0,
    has_tasks: tasks.count > 0,
    ...(tasks.count > 0 ? { task_status: `${tasks.completed_count} of ${tasks.count} checklist item${tasks.count === 1 ? "" : "s"} completed` } : {}),
    _links: {
      self,
      notes: `${self}/notes`,
      award_emoji: `${self}/award_emoji`,
      project: apiUrl(urls, `projects/${projectId}`),
      closed_as_duplicate_of: null,
    },
    references: { short: `#${i.iid}`, relative: relativeReference(i, o.context), full: `${i.projectPath}#${i.iid}` },
    severity: "UNKNOWN",
    ...(o.includeSubscribed ? { subscribed: false } : {}),
    moved_to_id: null,
    imported: false,
    imported_from: "none",
    service_desk_reply_to: null,
  };
}

/** The users an issue page shows: authors, assignees, closers. */
export const issueUserIds = (issues: readonly Issue[]): number[] =>
  issues.flatMap((i) => [Number(i.authorId), Number(i.closedById), ...i.assigneeIds.map(Number)]);

/** GitLab's Entities::ResourceLabelEvent, ResourceStateEvent and ResourceMilestoneEvent for issues. */
export function resourceEventEntity(kind: "label" | "state" | "milestone", e: IssueResourceEvent, users: Map<number, User>, urls: Urls) {
  const u = users.get(Number(e.userId));
  const base = {
    id: Number(e.id),
    user: u ? userBasic(u, urls) : null,
    created_at: e.createdAt,
    // Merge request events carry merge_request_id (issue_id 0).
    resource_type: Number(e.mergeRequestId) ? "MergeRequest" : "Issue",
    resource_id: Number(e.mergeRequestId) || Number(e.issueId),
  };
  if (kind === "label") return { ...base, label: e.label ? labelBasicEntity(e.label) : null, action: e.action };
  if (kind === "state") return { ...base, state: e.state };
  return { ...base, milestone: e.milestone ? milestoneEntity(e.milestone, urls) : null, action: e.action, state: e.state };
}
