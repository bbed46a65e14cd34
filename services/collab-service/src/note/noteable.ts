import { isPositiveInt32 } from "@quarry/gitlab";
import { notFound, paramError, unauthenticated } from "@quarry/grpc";
import type { Actor__Output } from "@quarry/proto";
import type { NoteableRef__Output } from "@quarry/proto/types/collab/v1/NoteableRef";
import type { CollabDeps } from "../deps.ts";
import type { Note } from "../generated/prisma/client.ts";
import { findVisibleIssue } from "../issue/access.ts";
import { resolveParent, type ResolvedParent } from "../label/parent.ts";
import { canReadMergeRequests, type MergeRequestScope, recordNotFound, resolveMergeRequestScope } from "../merge-request/access.ts";
import { findSnippet, viewerOf } from "../snippet/access.ts";
import { seesInternalNotes } from "./access.ts";

/** A noteable the caller may read, with what the note rules need. */
export interface ResolvedNoteable {
  parent: ResolvedParent;
  type: "Issue" | "Snippet" | "MergeRequest";
  /** The issue's, snippet's or merge request's id. */
  id: number;
  /** Issues and merge requests have one; snippets null. */
  iid: number | null;
  projectId: number;
  /** GitLab's discussion_locked: only project members may comment or edit. */
  locked: boolean;
  /** A confidential issue: its notes' mentions and webhooks are confidential too. */
  confidential: boolean;
  /** A merge request's project as its handlers see it (the note webhook's merge_request attributes). */
  mergeRequestScope?: MergeRequestScope;
}

/** GitLab's `before { authenticate! }` of API::Notes: every notes endpoint needs a signed-in caller. */
export function requireSignedIn(actor: Actor__Output | null): void {
  if (Number(actor?.userId ?? 0) <= 0 && !actor?.system) throw unauthenticated();
}

/**
 * GitLab's find_noteable: the project (404 Project Not Found when invisible), then the noteable
 * the caller may read. The one switch point per noteable type.
 */
export async function resolveNoteable(deps: CollabDeps, actor: Actor__Output | null, ref: NoteableRef__Output | null): Promise<ResolvedNoteable> {
  requireSignedIn(actor);
  const project = ref?.project ?? "";
  switch (ref?.type) {
    case "Issue": {
      const { parent, issue } = await findVisibleIssue(deps, actor, project, Number(ref.id));
      return {
        parent,
        type: "Issue",
        id: issue.id,
        iid: issue.iid,
        projectId: issue.projectId,
        locked: issue.discussionLocked === true,
        confidential: issue.confidential,
      };
    }
    case "Snippet": {
      // Project snippets only (document 2); the project first, so a hidden one stays 404 Project Not Found.
      const parent = await resolveParent(deps, actor, { project, group: "" });
      const { snippet } = await findSnippet(deps, await viewerOf(deps, actor), Number(ref.id), String(parent.id));
      return { parent, type: "Snippet", id: snippet.id, iid: null, projectId: parent.id, locked: false, confidential: false };
    }
    case "MergeRequest": {
      const { scope, mr } = await findReadableMergeRequest(deps, actor, project, Number(ref.id));
      return {
        parent: scope.parent,
        type: "MergeRequest",
        id: mr.id,
        iid: mr.iid,
        projectId: mr.projectId,
        locked: mr.discussionLocked === true,
        confidential: false,
        mergeRequestScope: scope,
      };
    }
    default:
      throw paramError("noteable_type does not have a valid value");
  }
}

/**
 * NotesFinder's target for a merge request: `find_by!(iid:)` over MergeRequestsFinder, which
 * leaves out merge requests the caller may not read, so an unknown iid and a hidden merge request
 * (a Guest's in a private project) are both `404 Not found`.
 */
export async function findReadableMergeRequest(deps: CollabDeps, actor: Actor__Output | null, project: string, iid: number) {
  const scope = await resolveMergeRequestScope(deps, actor, project);
  if (!isPositiveInt32(iid) || !canReadMergeRequests(scope)) throw recordNotFound();
  const mr = await deps.prisma.mergeRequest.findUnique({ where: { projectId_iid: { projectId: scope.parent.id, iid } } });
  if (!mr) throw recordNotFound();
  return { scope, mr };
}

/**
 * One note of the noteable the caller may read (GitLab's `noteable.notes.find` + readable_by?):
 * unknown ids, other noteables' notes and internal notes below Reporter are `404 Note Not Found`.
 */
export async function findNote(deps: CollabDeps, noteable: ResolvedNoteable, noteId: number): Promise<Note> {
  if (!isPositiveInt32(noteId)) throw notFound("Note");
  const note = await deps.prisma.note.findFirst({ where: { id: noteId, noteableType: noteable.type, noteableId: noteable.id } });
  if (!note || (note.internal && !seesInternalNotes(noteable.parent))) throw notFound("Note");
  return note;
}
