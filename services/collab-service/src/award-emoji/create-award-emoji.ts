import { isUniqueViolation } from "@quarry/database";
import { notFound, unauthenticated } from "@quarry/grpc";
import type { AwardEmoji } from "@quarry/proto/types/collab/v1/AwardEmoji";
import type { CreateAwardEmojiRequest__Output } from "@quarry/proto/types/collab/v1/CreateAwardEmojiRequest";
import type { CollabDeps } from "../deps.ts";
import { canAward, resolveAwardable } from "./awardable.ts";
import { publishSoon } from "../events/outbox.ts";
import { toAwardEmojiMessage } from "./entity.ts";
import { enqueueEmojiEvent } from "./event.ts";
import { isEmojiName, normalizeEmojiName } from "./names.ts";

/**
 * GitLab's POST …/award_emoji with AwardEmojis::AddService: the caller must read the awardable and
 * be allowed to award it (`404 Award Emoji Not Found`); the model's validations fail as
 * `404 Award Emoji <errors as a sentence> Not Found` (GitLab answers them with not_found!, not 400).
 * The award and its emoji webhook event ("award") are written in one transaction.
 */
export const createAwardEmoji =
  (deps: CollabDeps) =>
  async (req: CreateAwardEmojiRequest__Output): Promise<AwardEmoji> => {
    if (!Number(req.actor?.userId)) throw unauthenticated();
    const awardable = await resolveAwardable(deps, req.actor, req.awardable);
    if (!canAward(awardable)) throw notFound("Award Emoji");
    if (!awardable.emojiAwardable) throw notFound("Award Emoji Awardable cannot be awarded emoji");
    const name = normalizeEmojiName(req.name);
    const userId = awardable.parent.userId;
    const key = { awardableType: awardable.type, awardableId: awardable.id, userId, name };
    // AwardEmoji's validations in order: presence, emoji name, uniqueness per user and awardable.
    const errors: string[] = [];
    if (name.trim() === "") errors.push("Name can't be blank");
    if (!isEmojiName(name)) errors.push("Name is not a valid emoji name");
    else if (await deps.prisma.awardEmoji.findUnique({ where: { awardableType_awardableId_userId_name: key } })) errors.push(TAKEN);
    if (errors.length) throw notFound(`Award Emoji ${toSentence(errors)}`);
    try {
      const award = await deps.prisma.$transaction(async (tx) => {
        const created = await tx.awardEmoji.create({ data: key });
        await enqueueEmojiEvent(deps, tx, awardable, created, "award");
        return created;
      });
      publishSoon(deps);
      return toAwardEmojiMessage(award);
    } catch (err) {
      // A concurrent identical award won the unique index: the same answer as the validation.
      if (isUniqueViolation(err)) throw notFound(`Award Emoji ${TAKEN}`);
      throw err;
    }
  };

const TAKEN = "Name has already been taken";

/** Rails' Array#to_sentence: "a", "a and b", "a, b, and c". */
function toSentence(items: string[]): string {
  if (items.length <= 2) return items.join(" and ");
  return `${items.slice(0, -1).join(", ")}, and ${items.at(-1)}`;
}
