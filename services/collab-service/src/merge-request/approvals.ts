import type { Tx } from "../deps.ts";
import type { MergeRequest } from "../generated/prisma/client.ts";

/**
 * Called in the transaction that records a push to a merge request's source branch (refresh.ts),
 * after the new diff version is written.
 */
export async function onSourceBranchPushed(_tx: Tx, _mr: MergeRequest): Promise<void> {
  // helper E resets approvals here
}
