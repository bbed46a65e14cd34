import { Subjects } from "@quarry/bus";
import type { CollabDeps, Tx } from "../deps.ts";
import { issueHookAttrs, issueNoteWebPath, noteHookAttrs, snippetHookAttrs, snippetWebPath } from "../events/hook-attrs.ts";
import { enqueue } from "../events/outbox.ts";
import type { Note } from "../generated/prisma/client.ts";
import { mergeRequestInclude } from "../merge-request/entity.ts";
import { lastCommitHookAttrs, mergeRequestHookAttrs, mergeRequestWebPath } from "../merge-request/event.ts";
import type { ResolvedNoteable } from "./noteable.ts";

/**
 * Enqueues GitLab's note webhook event (Gitlab::DataBuilder::Note) in the transaction that created
 * or edited `note`: Note#hook_attrs with its url and action, and the issue's, project snippet's or
 * merge request's hook attributes. System notes enqueue nothing (Notes::PostProcessService skips them). The event
 * is confidential when the note is internal or its issue confidential
 * (Note#confidential?(include_noteable: true)). Returns the event id, or null when none was due.
 */
export async function enqueueNoteEvent(deps: CollabDeps, tx: Tx, noteable: ResolvedNoteable, note: Note, action: "create" | "update"): Promise<string | null> {
  if (note.system || note.projectId === null) return null;
  const path = noteable.parent.fullPath;
  let url: string;
  let confidential = note.internal;
  let context: { issue: Record<string, unknown> } | { snippet: Record<string, unknown> } | { merge_request: Record<string, unknown> };
  if (noteable.type === "Issue") {
    const issue = await tx.issue.findUniqueOrThrow({ where: { id: noteable.id } });
    url = issueNoteWebPath(path, issue, note);
    confidential ||= issue.confidential;
    context = { issue: await issueHookAttrs(tx, issue, path) };
  } else if (noteable.type === "Snippet") {
    const snippet = await tx.snippet.findUniqueOrThrow({ where: { id: noteable.id } });
    url = `${snippetWebPath(path, snippet)}#note_${note.id}`;
    context = { snippet: snippetHookAttrs(snippet, path) };
  } else if (noteable.type === "MergeRequest" && noteable.mergeRequestScope) {
    const scope = noteable.mergeRequestScope;
    const mr = await tx.mergeRequest.findUniqueOrThrow({ where: { id: noteable.id }, include: mergeRequestInclude });
    url = `${mergeRequestWebPath(path, mr.iid)}#note_${note.id}`;
    const { attrs } = await mergeRequestHookAttrs(tx, mr, scope, await lastCommitHookAttrs(deps, scope, mr.headSha));
    context = { merge_request: attrs };
  } else {
    return null;
  }
  return enqueue(tx, Subjects.note, {
    event_name: "note",
    object_kind: "note",
    event_type: confidential ? "confidential_note" : "note",
    user_id: note.authorId,
    project_id: note.projectId,
    // Note#hook_attrs already ends with url; GitLab's merge adds action after it.
    object_attributes: { ...noteHookAttrs(note, url), action },
    ...context,
  });
}
