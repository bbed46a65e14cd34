import { AccessLevel } from "@quarry/gitlab";
import { paramError } from "@quarry/grpc";
import type { Actor__Output } from "@quarry/proto";
import type { Awardable__Output } from "@quarry/proto/types/collab/v1/Awardable";
import type { CollabDeps } from "../deps.ts";
import type { Note, Snippet } from "../generated/prisma/client.ts";
import { findVisibleIssue, type IssueWithAssignees } from "../issue/access.ts";
import { resolveParent, type ResolvedParent } from "../label/parent.ts";
import type { MergeRequestScope } from "../merge-request/access.ts";
import { mergeRequestInclude, type MergeRequestRowFull } from "../merge-request/entity.ts";
import { findVisibleIssueNote } from "../note/access.ts";
import { findNote, findReadableMergeRequest } from "../note/noteable.ts";
import { findSnippet, viewerOf } from "../snippet/access.ts";

/** The record an emoji is awarded to, found and checked readable for the caller. */
export interface ResolvedAwardable {
  /** AwardEmoji.awardable_type: "Issue", "MergeRequest", "Snippet" or "Note". */
  type: string;
  /** The issue's, merge request's, snippet's or note's id. */
  id: number;
  /** The project, as identity-service answered for the caller. */
  parent: ResolvedParent;
  /** Whether the discussion is locked (GitLab's discussion_locked? of the issuable or the note's noteable). */
  locked: boolean;
  /** Awardable#emoji_awardable?: false for system notes. */
  emojiAwardable: boolean;
  /** The issue awarded, or the note's issue. */
  issue?: IssueWithAssignees;
  /** The project snippet awarded, or the note's snippet. */
  snippet?: Snippet;
  /** The note awarded. */
  note?: Note;
  /** The merge request awarded, or the note's merge request, with its project's scope. */
  mergeRequest?: { row: MergeRequestRowFull; scope: MergeRequestScope };
}

/**
 * API::Helpers::AwardEmoji#awardable with can_read_awardable?: one switch over the path's
 * awardable kinds. An issue follows findVisibleIssue (a confidential one is `404 Issue Not Found`
 * to outsiders), a note on an issue findVisibleIssueNote (an internal note is `404 Note Not Found`
 * below Reporter), a project snippet or its note findSnippet + findNote (`404 Snippet Not Found`,
 * `404 Note Not Found`), a merge request or its note findReadableMergeRequest + findNote (`404 Not
 * found` for an unknown or unreadable merge request).
 */
export async function resolveAwardable(deps: CollabDeps, actor: Actor__Output | null, ref: Awardable__Output | null): Promise<ResolvedAwardable> {
  if (!ref?.project) throw paramError("id is missing");
  const id = Number(ref.id);
  const noteId = Number(ref.noteId);
  switch (ref.type) {
    case "Issue": {
      if (noteId) {
        const { parent, issue, note } = await findVisibleIssueNote(deps, actor, ref.project, id, noteId);
        return { type: "Note", id: note.id, parent, locked: Boolean(issue.discussionLocked), emojiAwardable: !note.system, issue, note };
      }
      const { parent, issue } = await findVisibleIssue(deps, actor, ref.project, id);
      return { type: "Issue", id: issue.id, parent, locked: Boolean(issue.discussionLocked), emojiAwardable: true, issue };
    }
    case "Snippet": {
      // Project snippets (GitLab's award_emoji.rb mounts them under /projects/:id only).
      const parent = await resolveParent(deps, actor, { project: ref.project, group: "" });
      const { snippet } = await findSnippet(deps, await viewerOf(deps, actor), id, String(parent.id));
      if (noteId) {
        const note = await findNote(
          deps,
          { parent, type: "Snippet", id: snippet.id, iid: null, projectId: parent.id, locked: false, confidential: false },
          noteId,
        );
        return { type: "Note", id: note.id, parent, locked: false, emojiAwardable: !note.system, snippet, note };
      }
      return { type: "Snippet", id: snippet.id, parent, locked: false, emojiAwardable: true, snippet };
    }
    case "MergeRequest": {
      // user_project.merge_requests.find_by!(iid:) then read_merge_request: both `404 Not found`.
      const { scope, mr } = await findReadableMergeRequest(deps, actor, ref.project, id);
      const locked = mr.discussionLocked === true;
      const mergeRequest = { row: await deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id }, include: mergeRequestInclude }), scope };
      if (noteId) {
        const noteable = { parent: scope.parent, type: "MergeRequest" as const, id: mr.id, iid: mr.iid, projectId: mr.projectId, locked, confidential: false };
        const note = await findNote(deps, noteable, noteId);
        return { type: "Note", id: note.id, parent: scope.parent, locked, emojiAwardable: !note.system, note, mergeRequest };
      }
      return { type: "MergeRequest", id: mr.id, parent: scope.parent, locked, emojiAwardable: true, mergeRequest };
    }
    default:
      throw paramError("awardable type is invalid");
  }
}

/**
 * Awardable#user_can_award? (IssuablePolicy/NotePolicy's award_emoji): a signed-in user who may
 * read the awardable, except that a locked discussion takes awards from project members only.
 */
export function canAward(a: ResolvedAwardable): boolean {
  if (a.parent.userId <= 0) return false;
  if (!a.locked) return true;
  return a.parent.accessLevel >= AccessLevel.GUEST;
}
