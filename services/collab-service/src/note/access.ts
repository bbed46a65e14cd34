import { isPositiveInt32 } from "@quarry/gitlab";
import { notFound } from "@quarry/grpc";
import type { Actor__Output } from "@quarry/proto";
import type { CollabDeps } from "../deps.ts";
import type { Note } from "../generated/prisma/client.ts";
import { findVisibleIssue, seesConfidentialIssues, type IssueWithAssignees } from "../issue/access.ts";
import type { ResolvedParent } from "../label/parent.ts";

/** GitLab's read_internal_note: internal (formerly confidential) notes are for Reporter+ and administrators. */
export const seesInternalNotes = (parent: ResolvedParent): boolean => seesConfidentialIssues(parent);

/**
 * One note of an issue the caller may read; an unknown note, a note of another noteable and an
 * internal note the caller may not read are all `404 Note Not Found`.
 */
export async function findVisibleIssueNote(
  deps: CollabDeps,
  actor: Actor__Output | null,
  project: string,
  iid: number,
  noteId: number,
): Promise<{ parent: ResolvedParent; issue: IssueWithAssignees; note: Note }> {
  const { parent, issue } = await findVisibleIssue(deps, actor, project, iid);
  if (!isPositiveInt32(noteId)) throw notFound("Note");
  const note = await deps.prisma.note.findFirst({ where: { id: noteId, noteableType: "Issue", noteableId: issue.id } });
  if (!note || (note.internal && !seesInternalNotes(parent))) throw notFound("Note");
  return { parent, issue, note };
}
