// GitLab's hook_attrs of collab-service's records (Gitlab::HookData::IssueBuilder, NoteBuilder,
// Label#hook_attrs), shared by every webhook payload collab-service enqueues (emoji, note and
// issue events). Web URLs are paths below the external URL (hook-service prefixes it).
import type { CollabDeps, Tx } from "../deps.ts";
import type { Issue, Label, Note, Snippet } from "../generated/prisma/client.ts";
import { hookTime } from "./outbox.ts";

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/** An issue's web page, below the external URL. */
export const issueWebPath = (projectPath: string, issue: Pick<Issue, "iid">) => `/${projectPath}/-/issues/${issue.iid}`;

/** A note's anchor on its issue's page. */
export const issueNoteWebPath = (projectPath: string, issue: Pick<Issue, "iid">, note: Pick<Note, "id">) =>
  `${issueWebPath(projectPath, issue)}#note_${note.id}`;

/** GitLab's work item type names by issue_type. */
const TYPE_NAMES: Record<string, string> = { issue: "Issue", incident: "Incident", test_case: "Test Case", task: "Task" };

/** Gitlab::TimeTrackingFormatter.output: "1w 2d 3h 4m" (8-hour days, 5-day weeks); null for 0. */
export function humanTime(seconds: number): string | null {
  if (!seconds) return null;
  const sign = seconds < 0 ? "-" : "";
  let minutes = Math.floor(Math.abs(seconds) / 60);
  const parts: string[] = [];
  for (const [unit, size] of [
    ["w", 5 * 8 * 60],
    ["d", 8 * 60],
    ["h", 60],
    ["m", 1],
  ] as const) {
    const n = Math.floor(minutes / size);
    minutes -= n * size;
    if (n) parts.push(`${n}${unit}`);
  }
  return parts.length ? sign + parts.join(" ") : null;
}

/** Label#hook_attrs. */
export function labelHookAttrs(label: Label) {
  return {
    id: label.id,
    title: label.title,
    color: label.color,
    project_id: label.projectId,
    created_at: hookTime(label.createdAt),
    updated_at: hookTime(label.updatedAt),
    template: false,
    description: label.description,
    type: label.projectId !== null ? "ProjectLabel" : "GroupLabel",
    group_id: label.groupId,
  };
}

/** Issue#hook_attrs (Gitlab::HookData::IssueBuilder), reading the issue's labels and assignees in `db`. */
export async function issueHookAttrs(db: CollabDeps["prisma"] | Tx, issue: Issue, projectPath: string) {
  const [labels, assignees] = await Promise.all([
    db.issueLabel.findMany({ where: { issueId: issue.id }, include: { label: true }, orderBy: { labelId: "asc" } }),
    db.issueAssignee.findMany({ where: { issueId: issue.id }, orderBy: { userId: "asc" } }),
  ]);
  const assigneeIds = assignees.map((a) => a.userId);
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
    last_edited_at: null,
    last_edited_by_id: null,
    milestone_id: issue.milestoneId,
    moved_to_id: null,
    duplicated_to_id: null,
    project_id: issue.projectId,
    relative_position: null,
    state_id: issue.state === "closed" ? 2 : 1,
    time_estimate: issue.timeEstimate,
    title: issue.title,
    updated_at: hookTime(issue.updatedAt),
    updated_by_id: issue.updatedById,
    type: TYPE_NAMES[issue.issueType] ?? "Issue",
    url: issueWebPath(projectPath, issue),
    total_time_spent: issue.totalTimeSpent,
    time_change: 0,
    human_total_time_spent: humanTime(issue.totalTimeSpent),
    human_time_change: null,
    human_time_estimate: humanTime(issue.timeEstimate),
    assignee_ids: assigneeIds,
    assignee_id: assigneeIds[0] ?? null,
    labels: labels.map((l) => labelHookAttrs(l.label)),
    state: issue.state,
    severity: "unknown",
    customer_relations_contacts: [],
  };
}

/** Note#hook_attrs (Gitlab::HookData::NoteBuilder) of a note on an issue. */
export function issueNoteHookAttrs(note: Note, issue: Pick<Issue, "iid">, projectPath: string) {
  return noteHookAttrs(note, issueNoteWebPath(projectPath, issue, note));
}

/** A project snippet's web page, below the external URL. */
export const snippetWebPath = (projectPath: string, snippet: Pick<Snippet, "id">) => `/${projectPath}/-/snippets/${snippet.id}`;

/** Snippet#hook_attrs of a project snippet (its files live in git; `content` is not repeated here). */
export function snippetHookAttrs(snippet: Snippet, projectPath: string) {
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    author_id: snippet.authorId,
    project_id: snippet.projectId,
    created_at: hookTime(snippet.createdAt),
    updated_at: hookTime(snippet.updatedAt),
    file_name: snippet.fileName,
    type: "ProjectSnippet",
    visibility_level: ({ private: 0, internal: 10, public: 20 } as Record<string, number>)[snippet.visibility] ?? 0,
    url: snippetWebPath(projectPath, snippet),
  };
}

/** Note#hook_attrs of any note, with its web anchor. */
export function noteHookAttrs(note: Note, url: string) {
  return {
    attachment: null,
    author_id: note.authorId,
    change_position: null,
    commit_id: null,
    created_at: hookTime(note.createdAt),
    discussion_id: note.discussionId,
    id: note.id,
    line_code: null,
    note: note.body,
    noteable_id: note.noteableId,
    noteable_type: note.noteableType,
    original_position: null,
    position: null,
    project_id: note.projectId,
    resolved_at: hookTime(note.resolvedAt),
    resolved_by_id: note.resolvedById,
    resolved_by_push: null,
    st_diff: null,
    system: note.system,
    type: note.type,
    updated_at: hookTime(note.updatedAt),
    updated_by_id: note.updatedById,
    description: note.body,
    url,
  };
}
