import { unauthenticated } from "@quarry/grpc";
import type { AwardEmojiRef__Output } from "@quarry/proto/types/collab/v1/AwardEmojiRef";
import type { Empty } from "@quarry/proto/types/collab/v1/Empty";
import type { CollabDeps } from "../deps.ts";
import { resolveAwardable } from "./awardable.ts";
import { findAward } from "./find.ts";

/**
 * GitLab's DELETE …/award_emoji/:award_id: the award must belong to the awardable (`404 Not found`);
 * only its user or an administrator may remove it — anyone else gets GitLab's `unauthorized!`,
 * `401 Unauthorized` (not 403).
 */
export const deleteAwardEmoji =
  (deps: CollabDeps) =>
  async (req: AwardEmojiRef__Output): Promise<Empty> => {
    const awardable = await resolveAwardable(deps, req.actor, req.awardable);
    const award = await findAward(deps.prisma, awardable, Number(req.awardId));
    const { userId, isAdmin } = awardable.parent;
    if (userId <= 0 || (award.userId !== userId && !isAdmin)) throw unauthenticated();
    await deps.prisma.awardEmoji.deleteMany({ where: { id: award.id } });
    return {};
  };
