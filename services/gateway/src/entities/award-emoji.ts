import type { AwardEmoji__Output as AwardEmoji } from "@quarry/proto/types/collab/v1/AwardEmoji";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { Urls } from "./urls.ts";
import { userBasic } from "./user.ts";

/**
 * GitLab's Entities::AwardEmoji: the awarder as UserBasic (null when the user no longer exists),
 * `url` only for custom emoji, which Quarry does not have, so always null.
 */
export function awardEmojiEntity(a: AwardEmoji, users: ReadonlyMap<number, User>, urls: Urls) {
  const user = users.get(Number(a.userId));
  return {
    id: Number(a.id),
    name: a.name,
    user: user ? userBasic(user, urls) : null,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    awardable_id: Number(a.awardableId),
    awardable_type: a.awardableType,
    url: null,
  };
}
