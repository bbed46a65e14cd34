import type { AwardEmoji } from "@quarry/proto/types/collab/v1/AwardEmoji";
import type { AwardEmojiRef__Output } from "@quarry/proto/types/collab/v1/AwardEmojiRef";
import type { CollabDeps } from "../deps.ts";
import { resolveAwardable } from "./awardable.ts";
import { toAwardEmojiMessage } from "./entity.ts";
import { findAward } from "./find.ts";

/** GitLab's GET …/award_emoji/:award_id: one award of a readable awardable (`404 Not found` otherwise). */
export const getAwardEmoji =
  (deps: CollabDeps) =>
  async (req: AwardEmojiRef__Output): Promise<AwardEmoji> => {
    const awardable = await resolveAwardable(deps, req.actor, req.awardable);
    return toAwardEmojiMessage(await findAward(deps.prisma, awardable, Number(req.awardId)));
  };
