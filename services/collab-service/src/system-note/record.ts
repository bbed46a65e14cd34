import { randomBytes } from "node:crypto";
import type { Tx } from "../deps.ts";
import {
  assigneesChangedBody,
  confidentialityBody,
  DESCRIPTION_CHANGED_BODY,
  discussionLockBody,
  dueDateBody,
  mentionedInBody,
  titleChangedBody,
} from "./bodies.ts";
import { issueReferencesIn } from "./mentions.ts";

/** GitLab's Discussion.build_discussion_id: 40 hex characters; each system note is its own discussion. */
export const newDiscussionId = (): string => randomBytes(20).toString("hex");

/** What system notes compare, before and after a change of an issue. */
export interface IssueNoteState {
  title: string;
  description: string | null;
  confidential: boolean;
  discussionLocked: boolean | null;
  /** YYYY-MM-DD or null. */
  dueDate: string | null;
  assigneeIds: readonly number[];
}

const day = (d: Date | null): string | null => (d ? d.toISOString().slice(0, 10) : null);

/** What system notes compare, read off an issue row and its assignee ids. */
export function noteStateOf(
  issue: { title: string; description: string | null; confidential: boolean; discussionLocked: boolean | null; dueDate: Date | null },
  assigneeIds: readonly number[],
): IssueNoteState {
  return {
    title: issue.title,
    description: issue.description,
    confidential: issue.confidential,
    discussionLocked: issue.discussionLocked,
    dueDate: day(issue.dueDate),
    assigneeIds,
  };
}

export interface IssueChange {
  /** The issue's id, project and iid. */
  issue: { id: number; projectId: number; iid: number };
  /** Null for a new issue: only assignment, due date and mentions are noted then (GitLab's is_update: false). */
  before: IssueNoteState | null;
  after: IssueNoteState;
  /** Who made the change. */
  authorId: number;
  /** Usernames of the assignees added or removed (identity-service's answer). */
  usernames: ReadonlyMap<number, string>;
}

/**
 * Writes the system notes GitLab writes for a change of an issue (Issuable::CommonSystemNotesService
 * and the assignee, confidentiality and mention notes of Issues::UpdateService), in the caller's
 * transaction, and the "mentioned in #n" notes on the same-project issues newly mentioned in the
 * description. Returns the bodies written on the issue itself, in order.
 */
export async function recordIssueSystemNotes(tx: Tx, change: IssueChange): Promise<string[]> {
  const { before, after } = change;
  const bodies: string[] = [];
  if (before) {
    if (before.title !== after.title) bodies.push(titleChangedBody(before.title, after.title));
    if ((before.description ?? "") !== (after.description ?? "")) bodies.push(DESCRIPTION_CHANGED_BODY);
    if (Boolean(before.discussionLocked) !== Boolean(after.discussionLocked)) bodies.push(discussionLockBody(Boolean(after.discussionLocked)));
  }
  if ((before?.dueDate ?? null) !== after.dueDate && (before || after.dueDate)) bodies.push(dueDateBody(after.dueDate));
  const oldAssignees = before?.assigneeIds ?? [];
  const added = after.assigneeIds.filter((id) => !oldAssignees.includes(id));
  const removed = oldAssignees.filter((id) => !after.assigneeIds.includes(id));
  if (added.length || removed.length) {
    const name = (id: number) => change.usernames.get(id) ?? `user${id}`;
    bodies.push(assigneesChangedBody(added.map(name), removed.map(name)));
  }
  if (before && before.confidential !== after.confidential) bodies.push(confidentialityBody(after.confidential));

  const base = { noteableType: "Issue", projectId: change.issue.projectId, authorId: change.authorId, system: true };
  for (const body of bodies) {
    await tx.note.create({ data: { ...base, noteableId: change.issue.id, body, discussionId: newDiscussionId() } });
  }

  await recordMentions(tx, {
    projectId: change.issue.projectId,
    sourceIid: change.issue.iid,
    sourceConfidential: after.confidential,
    text: after.description,
    previousText: before?.description ?? null,
    authorId: change.authorId,
  });
  return bodies;
}

/** A text of an issue (its description or a comment on it) that may mention other issues. */
export interface MentionSource {
  projectId: number;
  /** The issue the text belongs to: the notes say "mentioned in #<sourceIid>". */
  sourceIid: number;
  /** A mention from a confidential issue is an internal note, so it does not reveal the issue. */
  sourceConfidential: boolean;
  text: string | null;
  /** The text before an edit: only mentions new in `text` are noted. */
  previousText: string | null;
  authorId: number;
}

/**
 * GitLab's create_cross_references!: a "mentioned in #n" system note on every same-project issue
 * newly mentioned, once per source issue.
 */
export async function recordMentions(tx: Tx, source: MentionSource): Promise<void> {
  const mentionedBefore = new Set(issueReferencesIn(source.previousText));
  const newlyMentioned = issueReferencesIn(source.text).filter((iid) => iid !== source.sourceIid && !mentionedBefore.has(iid));
  if (!newlyMentioned.length) return;
  const targets = await tx.issue.findMany({ where: { projectId: source.projectId, iid: { in: newlyMentioned } }, select: { id: true } });
  const body = mentionedInBody(`#${source.sourceIid}`);
  for (const target of targets) {
    // GitLab writes a cross reference once per source.
    const exists = await tx.note.findFirst({ where: { noteableType: "Issue", noteableId: target.id, system: true, body }, select: { id: true } });
    if (exists) continue;
    await tx.note.create({
      data: {
        noteableType: "Issue",
        noteableId: target.id,
        projectId: source.projectId,
        authorId: source.authorId,
        system: true,
        body,
        internal: source.sourceConfidential,
        discussionId: newDiscussionId(),
      },
    });
  }
}
