import { Subjects } from "@quarry/bus";
import type { CollabDeps, Tx } from "../deps.ts";
import type { AwardEmoji } from "../generated/prisma/client.ts";
import { issueHookAttrs, issueNoteWebPath, issueWebPath, noteHookAttrs, snippetHookAttrs, snippetWebPath } from "../events/hook-attrs.ts";
import { enqueue, hookTime } from "../events/outbox.ts";
import { lastCommitHookAttrs, mergeRequestHookAttrs, mergeRequestWebPath } from "../merge-request/event.ts";
import type { ResolvedAwardable } from "./awardable.ts";

/**
 * Enqueues GitLab's emoji webhook event (Gitlab::DataBuilder::Emoji) for an award made or
 * revoked, in the transaction that made or removed it: the award's attributes, the note awarded
 * and the issue, project snippet or merge request awarded or commented on. hook-service adds `user` and `project`.
 */
export async function enqueueEmojiEvent(
  deps: CollabDeps,
  tx: Tx,
  awardable: ResolvedAwardable,
  award: AwardEmoji,
  action: "award" | "revoke",
): Promise<string> {
  const path = awardable.parent.fullPath;
  const { issue, note, snippet, mergeRequest } = awardable;
  const awardedOn = issue
    ? note
      ? issueNoteWebPath(path, issue, note)
      : issueWebPath(path, issue)
    : snippet
      ? `${snippetWebPath(path, snippet)}${note ? `#note_${note.id}` : ""}`
      : mergeRequest
        ? `${mergeRequestWebPath(path, mergeRequest.row.iid)}${note ? `#note_${note.id}` : ""}`
        : "";
  const mergeRequestAttrs = mergeRequest
    ? (await mergeRequestHookAttrs(tx, mergeRequest.row, mergeRequest.scope, await lastCommitHookAttrs(deps, mergeRequest.scope, mergeRequest.row.headSha)))
        .attrs
    : null;
  return enqueue(tx, Subjects.emoji, {
    event_name: "emoji",
    object_kind: "emoji",
    event_type: action,
    user_id: award.userId,
    project_id: awardable.parent.id,
    object_attributes: {
      user_id: award.userId,
      created_at: hookTime(award.createdAt)!,
      id: award.id,
      name: award.name,
      awardable_type: award.awardableType,
      awardable_id: award.awardableId,
      updated_at: hookTime(award.updatedAt)!,
      awarded_on_url: awardedOn,
    },
    ...(note ? { note: noteHookAttrs(note, awardedOn) } : {}),
    ...(issue ? { issue: await issueHookAttrs(tx, issue, path) } : {}),
    ...(snippet ? { snippet: snippetHookAttrs(snippet, path) } : {}),
    ...(mergeRequestAttrs ? { merge_request: mergeRequestAttrs } : {}),
  });
}
