// How a merge reports itself through mr-core's builders: the merge request message and the
// merge_request webhook event.
import type { MergeRequest as MergeRequestMessage } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { CollabDeps, Tx } from "../deps.ts";
import { usernamesOf } from "../system-note/usernames.ts";
import { loadMergeRequestMessage } from "./entity.ts";
import { enqueueMergeRequestEvent, type MergeRequestSnapshot } from "./event.ts";
import type { MergeContext } from "./merge-merge-request-context.ts";

/** The merge request as the API answers it to the caller. */
export function mergeRequestMessageFor(deps: CollabDeps, ctx: MergeContext): Promise<MergeRequestMessage> {
  return loadMergeRequestMessage(deps, ctx.scope, ctx.mr.id);
}

/** The "merge" webhook event (MergeRequests::PostMergeService#execute_hooks), in the merge's transaction. */
export async function enqueueMergeEvent(deps: CollabDeps, tx: Tx, ctx: MergeContext, before: MergeRequestSnapshot): Promise<void> {
  const usernames = await usernamesOf(deps, before.assigneeIds);
  await enqueueMergeRequestEvent(tx, { mergeRequestId: ctx.mr.id, scope: ctx.scope, action: "merge", before, actorUserId: ctx.caller.userId, usernames });
}
