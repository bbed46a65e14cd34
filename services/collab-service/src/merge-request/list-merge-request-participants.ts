import type { ListMergeRequestParticipantsResponse } from "@quarry/proto/types/collab/v1/ListMergeRequestParticipantsResponse";
import type { MergeRequestRef__Output } from "@quarry/proto/types/collab/v1/MergeRequestRef";
import type { CollabDeps } from "../deps.ts";
import { AccessLevel } from "@quarry/gitlab";
import { findVisibleMergeRequest } from "./access.ts";

/**
 * GET …/participants (Participable for a merge request): the author, the authors of its comments
 * (internal ones only when the caller may see them: Reporter+), its assignees and reviewers,
 * each once, in that order.
 */
export const listMergeRequestParticipants =
  (deps: CollabDeps) =>
  async (req: MergeRequestRef__Output): Promise<ListMergeRequestParticipantsResponse> => {
    const { mr, parent } = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    const seesInternal = parent.isAdmin || (parent.userId > 0 && parent.accessLevel >= AccessLevel.REPORTER);
    const notes = await deps.prisma.note.findMany({
      where: { noteableType: "MergeRequest", noteableId: mr.id, system: false, ...(seesInternal ? {} : { internal: false }) },
      select: { authorId: true },
      orderBy: { id: "asc" },
    });
    const ids = [mr.authorId, ...notes.map((n) => n.authorId), ...mr.assignees.map((a) => a.userId), ...mr.reviewers.map((r) => r.userId)];
    return { userIds: [...new Set(ids)] };
  };
