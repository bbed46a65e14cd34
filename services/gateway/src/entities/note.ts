import type { Note__Output as Note } from "@quarry/proto/types/collab/v1/Note";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { orNull, type Urls } from "./urls.ts";
import { userBasic } from "./user.ts";

/**
 * A note's author: GitLab's UserBasic plus document 2's `created_at` and `email`, which is the
 * user's public email or null (never the private address). Null when the user is gone.
 */
export function noteAuthor(u: User | undefined, urls: Urls) {
  if (!u) return null;
  return { ...userBasic(u, urls), created_at: u.createdAt, email: orNull(u.publicEmail) };
}

/**
 * GitLab's Entities::Note. Not resolvable (no threads yet), so no resolved fields; no attachments,
 * imports or quick actions, hence `attachment` null, `imported` false, `imported_from` "none",
 * `commands_changes` {}; `confidential` is the deprecated name of `internal`.
 */
export function noteEntity(n: Note, users: ReadonlyMap<number, User>, urls: Urls) {
  return {
    id: Number(n.id),
    type: n.type || null,
    body: n.body,
    attachment: null,
    author: noteAuthor(users.get(Number(n.authorId)), urls),
    created_at: n.createdAt,
    updated_at: n.updatedAt,
    system: n.system,
    noteable_id: Number(n.noteableId),
    noteable_type: n.noteableType,
    project_id: Number(n.projectId) > 0 ? Number(n.projectId) : null,
    resolvable: false,
    confidential: n.internal,
    internal: n.internal,
    imported: false,
    imported_from: "none",
    noteable_iid: Number(n.noteableIid) > 0 ? Number(n.noteableIid) : null,
    commands_changes: {},
  };
}
