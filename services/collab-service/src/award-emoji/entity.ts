import type { AwardEmoji } from "@quarry/proto/types/collab/v1/AwardEmoji";
import type { AwardEmoji as AwardEmojiRow } from "../generated/prisma/client.ts";

/** An award row as its message (GitLab's Entities::AwardEmoji less the user, which the gateway renders). */
export function toAwardEmojiMessage(row: AwardEmojiRow): AwardEmoji {
  return {
    id: row.id,
    name: row.name,
    userId: row.userId,
    awardableId: row.awardableId,
    awardableType: row.awardableType,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
