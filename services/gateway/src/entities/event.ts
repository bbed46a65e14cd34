import type { ContributionEvent__Output as ContributionEvent } from "@quarry/proto/types/activity/v1/ContributionEvent";
import type { PushEventPayload__Output as PushEventPayload } from "@quarry/proto/types/activity/v1/PushEventPayload";
import type { Note__Output as Note } from "@quarry/proto/types/collab/v1/Note";
import type { UserActivity__Output as UserActivity } from "@quarry/proto/types/identity/v1/UserActivity";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { noteEntity } from "./note.ts";
import { orNull, type Urls } from "./urls.ts";
import { userBasic } from "./user.ts";

const idOrNull = (v: unknown) => (Number(v) > 0 ? Number(v) : null);

/** GitLab's Entities::PushEventPayload. */
export function pushEventPayload(p: PushEventPayload) {
  return {
    commit_count: p.commitCount,
    action: p.action,
    ref_type: p.refType,
    commit_from: orNull(p.commitFrom),
    commit_to: orNull(p.commitTo),
    ref: p.ref,
    commit_title: orNull(p.commitTitle),
    ref_count: p.refCount > 0 ? p.refCount : null,
  };
}

/** The recorded note (activity-service's note_json) as collab-service's Note, for Entities::Note. */
function recordedNote(json: string): Note {
  const n = JSON.parse(json) as Record<string, unknown>;
  const s = (v: unknown) => (typeof v === "string" ? v : "");
  return {
    id: Number(n.id ?? 0),
    type: s(n.type),
    body: s(n.body),
    authorId: Number(n.author_id ?? 0),
    createdAt: s(n.created_at),
    updatedAt: s(n.updated_at),
    system: n.system === true,
    noteableId: Number(n.noteable_id ?? 0),
    noteableType: s(n.noteable_type),
    projectId: Number(n.project_id ?? 0),
    internal: n.internal === true,
    noteableIid: Number(n.noteable_iid ?? 0),
    discussionId: "",
  };
}

/**
 * GitLab's Entities::Event: `note` for comments (Entities::Note as recorded), `author` (UserBasic)
 * when the author still exists, `wiki_page` (WikiPageBasic) for wiki events, `push_data` for
 * pushes; nothing is imported, so `imported` false and `imported_from` "none".
 */
export function eventEntity(e: ContributionEvent, users: ReadonlyMap<number, User>, urls: Urls) {
  const author = users.get(Number(e.authorId));
  return {
    id: Number(e.id),
    project_id: idOrNull(e.projectId),
    action_name: e.actionName,
    target_id: idOrNull(e.targetId),
    target_iid: idOrNull(e.targetIid),
    target_type: orNull(e.targetType),
    author_id: Number(e.authorId),
    target_title: orNull(e.targetTitle),
    created_at: e.createdAt,
    ...(e.noteJson ? { note: noteEntity(recordedNote(e.noteJson), users, urls) } : {}),
    ...(author ? { author: userBasic(author, urls) } : {}),
    ...(e.wikiPageJson ? { wiki_page: JSON.parse(e.wikiPageJson) as { format: string; slug: string; title: string } } : {}),
    imported: false,
    imported_from: "none",
    ...(e.pushData ? { push_data: pushEventPayload(e.pushData) } : {}),
    author_username: author?.username ?? null,
  };
}

/** GitLab's Entities::UserActivity: `last_activity_at` is the same day as `last_activity_on`. */
export function userActivityEntity(a: UserActivity) {
  return { username: a.username, last_activity_on: a.lastActivityOn, last_activity_at: a.lastActivityOn };
}
