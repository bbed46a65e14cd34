import type { Note } from "@quarry/proto/types/collab/v1/Note";
import type { NoteRef__Output } from "@quarry/proto/types/collab/v1/NoteRef";
import type { CollabDeps } from "../deps.ts";
import { toNoteMessage } from "./entity.ts";
import { findNote, resolveNoteable } from "./noteable.ts";

/** GitLab's get_note: one note of the noteable the caller may read (404 Note Not Found otherwise). */
export const getNote =
  (deps: CollabDeps) =>
  async (req: NoteRef__Output): Promise<Note> => {
    const noteable = await resolveNoteable(deps, req.actor, req.noteable);
    return toNoteMessage(await findNote(deps, noteable, Number(req.noteId)), noteable);
  };
