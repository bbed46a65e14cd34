import { badRequest } from "@quarry/grpc";
import type { Note } from "@quarry/proto/types/collab/v1/Note";
import type { UpdateNoteRequest__Output } from "@quarry/proto/types/collab/v1/UpdateNoteRequest";
import type { CollabDeps } from "../deps.ts";
import { publishSoon } from "../events/outbox.ts";
import { toNoteMessage } from "./entity.ts";
import { enqueueNoteEvent } from "./event.ts";
import { findNote, resolveNoteable } from "./noteable.ts";
import { requireAdminNote, validateNoteBody } from "./rules.ts";

/**
 * GitLab's update_note: admin_note (403), then Notes::UpdateService: a changed body is validated
 * and records updated_by and last_edited_at; an unchanged or absent body changes nothing; the
 * deprecated `confidential` may not change (the Note model's "can not be changed for existing notes").
 * Refusals read `400 Bad request - Failed to save note {…}` (helpers/notes_helpers.rb).
 */
export const updateNote =
  (deps: CollabDeps) =>
  async (req: UpdateNoteRequest__Output): Promise<Note> => {
    const noteable = await resolveNoteable(deps, req.actor, req.noteable);
    const note = await findNote(deps, noteable, Number(req.noteId));
    requireAdminNote(noteable, note);
    const body = req.body ?? note.body;
    if (req.confidential !== undefined && req.confidential !== note.internal) {
      throw badRequest('400 Bad request - Failed to save note {:confidential=>["can not be changed for existing notes"]}');
    }
    if (body === note.body) return toNoteMessage(note, noteable);
    validateNoteBody(body, "Failed to save note");
    // The edit and its webhook event commit together (GitLab's execute_note_webhook: body changes only).
    const row = await deps.prisma.$transaction(async (tx) => {
      const updated = await tx.note.update({
        where: { id: note.id },
        data: { body, updatedById: noteable.parent.userId || null, lastEditedAt: new Date() },
      });
      await enqueueNoteEvent(deps, tx, noteable, updated, "update");
      return updated;
    });
    publishSoon(deps);
    return toNoteMessage(row, noteable);
  };
