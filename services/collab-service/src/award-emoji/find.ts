import { status } from "@grpc/grpc-js";
import { isPositiveInt32, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { ServiceError } from "@quarry/grpc";
import type { CollabDeps, Tx } from "../deps.ts";
import type { AwardEmoji } from "../generated/prisma/client.ts";
import type { ResolvedAwardable } from "./awardable.ts";

/** `awardable.award_emoji.find(award_id)`: one award of this awardable; another's or none is ActiveRecord's `404 Not found`. */
export async function findAward(db: CollabDeps["prisma"] | Tx, awardable: ResolvedAwardable, awardId: number): Promise<AwardEmoji> {
  const award = isPositiveInt32(awardId)
    ? await db.awardEmoji.findFirst({ where: { id: awardId, awardableType: awardable.type, awardableId: awardable.id } })
    : null;
  if (!award) throw new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });
  return award;
}
