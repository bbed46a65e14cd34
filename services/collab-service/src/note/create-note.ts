import type { CreateNoteRequest__Output } from "@quarry/proto/types/collab/v1/CreateNoteRequest";
import type { Note } from "@quarry/proto/types/collab/v1/Note";
import type { CollabDeps } from "../deps.ts";
import { seesInternalNotes } from "./access.ts";
import { recordMentions } from "../system-note/record.ts";
import { publishSoon } from "../events/outbox.ts";
import { toNoteMessage } from "./entity.ts";
import { enqueueNoteEvent } from "./event.ts";
import { requireSignedIn, resolveNoteable } from "./noteable.ts";
import { mayBackdateNotes, newDiscussionId, overNotesLimit, parseCreatedAt, rateLimited, requireCreateNote, validateNoteBody } from "./rules.ts";

/**
 * POST …/notes (GitLab's notes.rb post + create_note + Notes::CreateService): the rate limit
 * first (as check_rate_limit! precedes find_noteable), then the noteable, create_note, the
 * model's validations. `internal` is kept only for Reporter+ (Notes::BuildService silently drops
 * it otherwise); `created_at` only for administrators and owners (others' is ignored), and then
 * sets updated_at too. Quick actions are not interpreted.
 */
export const createNote =
  (deps: CollabDeps) =>
  async (req: CreateNoteRequest__Output): Promise<Note> => {
    requireSignedIn(req.actor);
    const userId = Number(req.actor?.userId ?? 0);
    if (await overNotesLimit(deps.prisma, deps, userId)) throw rateLimited();
    const noteable = await resolveNoteable(deps, req.actor, req.noteable);
    requireCreateNote(noteable);
    validateNoteBody(req.body);
    const createdAt = req.createdAt && mayBackdateNotes(noteable) ? parseCreatedAt(req.createdAt) : undefined;
    const row = await deps.prisma.$transaction(async (tx) => {
      // One creation per user at a time, so concurrent requests cannot all pass the count.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('notes_create'), ${userId})`;
      if (await overNotesLimit(tx, deps, userId)) throw rateLimited();
      const note = await tx.note.create({
        data: {
          noteableType: noteable.type,
          noteableId: noteable.id,
          projectId: noteable.projectId,
          authorId: userId,
          body: req.body,
          internal: req.internal && seesInternalNotes(noteable.parent),
          discussionId: newDiscussionId(),
          ...(createdAt ? { createdAt, updatedAt: createdAt } : {}),
        },
      });
      if (noteable.type === "Issue" && noteable.iid !== null) {
        await recordMentions(tx, {
          projectId: noteable.projectId,
          sourceIid: noteable.iid,
          // Mentions from internal notes or confidential issues must not reveal them.
          sourceConfidential: note.internal || noteable.confidential,
          text: note.body,
          previousText: null,
          authorId: userId,
        });
      }
      await enqueueNoteEvent(deps, tx, noteable, note, "create");
      return note;
    });
    publishSoon(deps);
    return toNoteMessage(row, noteable);
  };
