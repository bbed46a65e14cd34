// Placeholder until mr-core's entity and event builders are merged.
import type { MergeRequest as MergeRequestMessage } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { CollabDeps, Tx } from "../deps.ts";
import type { MergeRequest } from "../generated/prisma/client.ts";
import type { MergeContext } from "./merge-merge-request-context.ts";

export async function mergeRequestMessageFor(_deps: CollabDeps, ctx: MergeContext): Promise<MergeRequestMessage> {
  return { id: ctx.mr.id, iid: ctx.mr.iid, state: ctx.mr.state } as MergeRequestMessage;
}

export async function mergeRequestEventAfterMerge(_tx: Tx, _ctx: MergeContext, _before: MergeRequest): Promise<void> {}
