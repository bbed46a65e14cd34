import { pagination } from "@quarry/database";
import type { ListNotesRequest__Output } from "@quarry/proto/types/collab/v1/ListNotesRequest";
import type { ListNotesResponse } from "@quarry/proto/types/collab/v1/ListNotesResponse";
import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { seesInternalNotes } from "./access.ts";
import { toNoteMessage } from "./entity.ts";
import { resolveNoteable } from "./noteable.ts";
import { noteOrder } from "./rules.ts";

/**
 * GET …/notes: the noteable's notes, system notes included (activity_filter narrows), ordered by created_at or updated_at
 * (then id) in `sort` order; internal notes only for Reporter+ and administrators. GitLab drops
 * unreadable notes after paginating; they are left out of the query here, so pages stay full.
 */
export const listNotes =
  (deps: CollabDeps) =>
  async (req: ListNotesRequest__Output): Promise<ListNotesResponse> => {
    const noteable = await resolveNoteable(deps, req.actor, req.noteable);
    const where: Prisma.NoteWhereInput = {
      noteableType: noteable.type,
      noteableId: noteable.id,
      ...(seesInternalNotes(noteable.parent) ? {} : { internal: false }),
      // UserPreference::NOTES_FILTERS.
      ...(req.activityFilter === "only_comments" ? { system: false } : req.activityFilter === "only_activity" ? { system: true } : {}),
    };
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const [total, rows] = await Promise.all([
      deps.prisma.note.count({ where }),
      deps.prisma.note.findMany({ where, orderBy: noteOrder(req.orderBy, req.sort), skip: offset, take: limit }),
    ]);
    return { notes: rows.map((n) => toNoteMessage(n, noteable)), pageInfo: { total, page: offset / limit + 1, perPage: limit } };
  };
