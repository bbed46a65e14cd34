import type { Note as NoteMessage } from "@quarry/proto/types/collab/v1/Note";
import type { Note } from "../generated/prisma/client.ts";
import type { ResolvedNoteable } from "./noteable.ts";

/** A note row as the Note message (the gateway makes GitLab's Entities::Note of it). */
export function toNoteMessage(note: Note, noteable: Pick<ResolvedNoteable, "iid">): NoteMessage {
  return {
    id: note.id,
    type: note.type ?? "",
    body: note.body,
    authorId: note.authorId,
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
    system: note.system,
    noteableId: note.noteableId,
    noteableType: note.noteableType,
    projectId: note.projectId ?? 0,
    internal: note.internal,
    noteableIid: noteable.iid ?? 0,
    discussionId: note.discussionId,
  };
}
