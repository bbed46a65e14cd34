import type { Tx } from "../deps.ts";
import { assigneesChangedBody, DESCRIPTION_CHANGED_BODY, discussionLockBody, titleChangedBody, toSentence } from "../system-note/bodies.ts";
import { newDiscussionId } from "../system-note/record.ts";
import { draftlessTitle, isDraftTitle } from "./rules.ts";

/** What merge request system notes compare, before and after a change. */
export interface MergeRequestNoteState {
  title: string;
  description: string | null;
  discussionLocked: boolean | null;
  targetBranch: string;
  assigneeIds: readonly number[];
  reviewerIds: readonly number[];
}

/** "requested review from @a and removed review request for @b" (change_issuable_reviewers). */
export function reviewersChangedBody(added: readonly string[], removed: readonly string[]): string {
  const parts: string[] = [];
  if (added.length) parts.push(`requested review from ${toSentence(added.map((u) => `@${u}`))}`);
  if (removed.length) parts.push(`removed review request for ${toSentence(removed.map((u) => `@${u}`))}`);
  return parts.join(" and ");
}

/** "marked this merge request as **draft**" / "… as **ready**" (handle_merge_request_draft). */
export const draftBody = (draft: boolean): string => `marked this merge request as **${draft ? "draft" : "ready"}**`;

/** "changed target branch from `a` to `b`" (change_branch). */
export const targetBranchBody = (from: string, to: string): string => `changed target branch from \`${from}\` to \`${to}\``;

export interface MergeRequestChange {
  mr: { id: number; projectId: number };
  /** Null for a new merge request: only assignees and reviewers are noted then. */
  before: MergeRequestNoteState | null;
  after: MergeRequestNoteState;
  authorId: number;
  /** Usernames of the users added or removed. */
  usernames: ReadonlyMap<number, string>;
}

/**
 * The bodies GitLab writes for a change (Issuable::CommonSystemNotesService's draft and title
 * notes, then MergeRequests::UpdateService#handle_changes: description, lock, target branch,
 * assignees, reviewers), in that order.
 */
export function mergeRequestNoteBodies(change: MergeRequestChange): string[] {
  const { before, after } = change;
  const bodies: string[] = [];
  const name = (id: number) => change.usernames.get(id) ?? `user${id}`;
  if (before) {
    if (before.title !== after.title) {
      if (isDraftTitle(before.title) !== isDraftTitle(after.title)) bodies.push(draftBody(isDraftTitle(after.title)));
      if (draftlessTitle(before.title) !== draftlessTitle(after.title)) bodies.push(titleChangedBody(before.title, after.title));
    }
    if ((before.description ?? "") !== (after.description ?? "")) bodies.push(DESCRIPTION_CHANGED_BODY);
    if (Boolean(before.discussionLocked) !== Boolean(after.discussionLocked)) bodies.push(discussionLockBody(Boolean(after.discussionLocked), "merge request"));
    if (before.targetBranch !== after.targetBranch) bodies.push(targetBranchBody(before.targetBranch, after.targetBranch));
  }
  const diff = (old: readonly number[], now: readonly number[]) => ({
    added: now.filter((id) => !old.includes(id)),
    removed: old.filter((id) => !now.includes(id)),
  });
  const a = diff(before?.assigneeIds ?? [], after.assigneeIds);
  if (a.added.length || a.removed.length) bodies.push(assigneesChangedBody(a.added.map(name), a.removed.map(name)));
  const r = diff(before?.reviewerIds ?? [], after.reviewerIds);
  if (r.added.length || r.removed.length) bodies.push(reviewersChangedBody(r.added.map(name), r.removed.map(name)));
  return bodies;
}

/** Writes one system note on a merge request. */
export function writeMergeRequestSystemNote(tx: Tx, mr: { id: number; projectId: number }, authorId: number, body: string, at?: Date) {
  return tx.note.create({
    data: {
      noteableType: "MergeRequest",
      noteableId: mr.id,
      projectId: mr.projectId,
      authorId,
      system: true,
      body,
      discussionId: newDiscussionId(),
      ...(at ? { createdAt: at, updatedAt: at } : {}),
    },
  });
}

/** Writes the system notes of a change in the caller's transaction; returns their bodies. */
export async function recordMergeRequestNotes(tx: Tx, change: MergeRequestChange): Promise<string[]> {
  const bodies = mergeRequestNoteBodies(change);
  for (const body of bodies) await writeMergeRequestSystemNote(tx, change.mr, change.authorId, body);
  return bodies;
}
