import type { Empty } from "@quarry/proto/types/collab/v1/Empty";
import type { NoteRef__Output } from "@quarry/proto/types/collab/v1/NoteRef";
import type { CollabDeps } from "../deps.ts";
import { findNote, resolveNoteable } from "./noteable.ts";
import { requireAdminNote } from "./rules.ts";

/** GitLab's delete_note: admin_note (403), then the note and its award emoji go together. */
export const deleteNote =
  (deps: CollabDeps) =>
  async (req: NoteRef__Output): Promise<Empty> => {
    const noteable = await resolveNoteable(deps, req.actor, req.noteable);
    const note = await findNote(deps, noteable, Number(req.noteId));
    requireAdminNote(noteable, note);
    await deps.prisma.$transaction([
      deps.prisma.awardEmoji.deleteMany({ where: { awardableType: "Note", awardableId: note.id } }),
      deps.prisma.note.delete({ where: { id: note.id } }),
    ]);
    return {};
  };
