import type { Actor__Output } from "@quarry/proto";
import type { MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { CollabDeps } from "../deps.ts";

/** The page's merge requests as proto messages, in the order of `ids`. */
export async function listMergeRequestMessages(
  _deps: CollabDeps,
  _actor: Actor__Output | null,
  _ids: number[],
  _paths: Map<number, string>,
): Promise<MergeRequest[]> {
  return [];
}
