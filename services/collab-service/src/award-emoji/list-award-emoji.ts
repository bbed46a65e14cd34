import { pagination } from "@quarry/database";
import type { ListAwardEmojiRequest__Output } from "@quarry/proto/types/collab/v1/ListAwardEmojiRequest";
import type { ListAwardEmojiResponse } from "@quarry/proto/types/collab/v1/ListAwardEmojiResponse";
import type { CollabDeps } from "../deps.ts";
import { resolveAwardable } from "./awardable.ts";
import { toAwardEmojiMessage } from "./entity.ts";

/** GitLab's GET …/award_emoji: `awardable.award_emoji` (ordered by id), paginated; the awardable must be readable. */
export const listAwardEmoji =
  (deps: CollabDeps) =>
  async (req: ListAwardEmojiRequest__Output): Promise<ListAwardEmojiResponse> => {
    const awardable = await resolveAwardable(deps, req.actor, req.awardable);
    const where = { awardableType: awardable.type, awardableId: awardable.id };
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const [total, rows] = await Promise.all([
      deps.prisma.awardEmoji.count({ where }),
      deps.prisma.awardEmoji.findMany({ where, orderBy: { id: "asc" }, skip: offset, take: limit }),
    ]);
    return { awardEmoji: rows.map(toAwardEmojiMessage), pageInfo: { total, page: offset / limit + 1, perPage: limit } };
  };
