import { unauthenticated } from "@quarry/grpc";
import type { AwardEmojiRef__Output } from "@quarry/proto/types/collab/v1/AwardEmojiRef";
import type { Empty } from "@quarry/proto/types/collab/v1/Empty";
import type { CollabDeps } from "../deps.ts";
import { resolveAwardable } from "./awardable.ts";
import { publishSoon } from "../events/outbox.ts";
import { enqueueEmojiEvent } from "./event.ts";
import { findAward } from "./find.ts";

/**
 * GitLab's DELETE …/award_emoji/:award_id: the award must belong to the awardable (`404 Not found`);
 * only its user or an administrator may remove it — anyone else gets GitLab's `unauthorized!`,
 * `401 Unauthorized` (not 403). The removal and its emoji webhook event ("revoke") commit together.
 */
export const deleteAwardEmoji =
  (deps: CollabDeps) =>
  async (req: AwardEmojiRef__Output): Promise<Empty> => {
    const awardable = await resolveAwardable(deps, req.actor, req.awardable);
    const award = await findAward(deps.prisma, awardable, Number(req.awardId));
    const { userId, isAdmin } = awardable.parent;
    if (userId <= 0 || (award.userId !== userId && !isAdmin)) throw unauthenticated();
    await deps.prisma.$transaction(async (tx) => {
      // Only the transaction that removed the row announces it (a concurrent delete removes nothing).
      const { count } = await tx.awardEmoji.deleteMany({ where: { id: award.id } });
      if (count) await enqueueEmojiEvent(deps, tx, awardable, award, "revoke");
    });
    publishSoon(deps);
    return {};
  };
