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

  const mentionedBefore = new Set(issueReferencesIn(before?.description));
  const newlyMentioned = issueReferencesIn(after.description).filter((iid) => iid !== change.issue.iid && !mentionedBefore.has(iid));
  if (newlyMentioned.length) {
    const targets = await tx.issue.findMany({ where: { projectId: change.issue.projectId, iid: { in: newlyMentioned } }, select: { id: true } });
    const body = mentionedInBody(`#${change.issue.iid}`);
    for (const target of targets) {
      // GitLab writes a cross reference once per source.
      const exists = await tx.note.findFirst({ where: { noteableType: "Issue", noteableId: target.id, system: true, body }, select: { id: true } });
      if (exists) continue;
      // A mention from a confidential issue must not reveal it to those who can read only the target.
      await tx.note.create({ data: { ...base, noteableId: target.id, body, internal: after.confidential, discussionId: newDiscussionId() } });
    }
  }
  return bodies;
}
