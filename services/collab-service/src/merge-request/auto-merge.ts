// Auto-merge (GitLab's AutoMergeService with the merge_when_pipeline_succeeds strategy): set on a
// merge request whose head pipeline still runs, cancelled through the API, and carried out by the
// pipeline read model's consumer when that pipeline succeeds. A failed pipeline leaves it set (a
// retried job may still succeed, as in GitLab); a push to the source branch cancels it.
import { unauthenticated } from "@quarry/grpc";
import type { CancelAutoMergeRequest__Output as CancelAutoMergeRequest } from "@quarry/proto/types/collab/v1/CancelAutoMergeRequest";
import type { CancelAutoMergeResponse } from "@quarry/proto/types/collab/v1/CancelAutoMergeResponse";
import { Subjects } from "@quarry/bus";
import type { CollabDeps, Tx } from "../deps.ts";
import { enqueue, publishSoon } from "../events/outbox.ts";
import { mergeRequestInclude } from "./entity.ts";
import { mergeRequestHookAttrs } from "./event.ts";
import { Prisma, type CiPipeline } from "../generated/prisma/client.ts";
import { writeMergeRequestSystemNote } from "./system-notes.ts";
import { loadMergeContext, type MergeContext, type StoredPusher } from "./merge-merge-request-context.ts";
import { performMerge, type MergeParams } from "./merge-merge-request-perform.ts";
import { failingCheck, mergeStatusOf, type MergeStatus } from "./merge-status.ts";
import { isInProgress, mergeRequestHeadRef } from "./pipelines.ts";

/** What an auto-merge remembers (merge_params): the merge's params and who asked, as whom to push. */
export interface AutoMergeParams {
  params: MergeParams;
  pusher: StoredPusher | null;
  isAdmin: boolean;
}

/** "enabled an automatic merge when the pipeline for <sha> succeeds" (SystemNotes::MergeRequestsService). */
export const autoMergeEnabledBody = (sha: string): string => `enabled an automatic merge when the pipeline for ${sha} succeeds`;
export const AUTO_MERGE_CANCELED_BODY = "canceled the automatic merge";

/**
 * MergeWhenPipelineSucceedsService#available_for?: an open merge request that passes every state
 * check but CI, whose head pipeline is still running.
 */
export function autoMergeAvailable(status: MergeStatus): boolean {
  return failingCheck(status.facts, { skipCi: true, stateOnly: true }) === null && isInProgress(status.facts.headPipeline);
}

async function systemNote(tx: Prisma.TransactionClient, ctx: MergeContext, body: string): Promise<void> {
  await writeMergeRequestSystemNote(tx, ctx.mr, ctx.caller.userId, body);
}

/**
 * Sets auto-merge for the caller (merge_user) with the merge's params; asked again while set, only
 * the params change (AutoMergeService#update), without a second note.
 */
export async function enableAutoMerge(deps: CollabDeps, ctx: MergeContext, params: MergeParams, pusher: StoredPusher | null): Promise<void> {
  const stored: AutoMergeParams = { params, pusher, isAdmin: ctx.caller.isAdmin };
  const already = ctx.mr.mergeWhenPipelineSucceeds;
  await deps.prisma.$transaction(async (tx) => {
    ctx.mr = await tx.mergeRequest.update({
      where: { id: ctx.mr.id },
      data: {
        mergeWhenPipelineSucceeds: true,
        mergeUserId: ctx.caller.userId,
        autoMergeSha: ctx.mr.headSha,
        autoMergeParams: stored as unknown as Prisma.InputJsonValue,
      },
    });
    if (!already) {
      await systemNote(tx, ctx, autoMergeEnabledBody(ctx.mr.headSha ?? ""));
      await enqueueAutoMergeNotification(tx, ctx);
    }
  });
  if (!already) publishSoon(deps);
}

/** GitLab's notification_service.merge_when_pipeline_succeeds (mailed by hook-service; no webhook). */
async function enqueueAutoMergeNotification(tx: Tx, ctx: MergeContext): Promise<void> {
  const row = await tx.mergeRequest.findUniqueOrThrow({ where: { id: ctx.mr.id }, include: mergeRequestInclude });
  const { attrs } = await mergeRequestHookAttrs(tx, row, ctx.scope, null);
  await enqueue(tx, Subjects.notification, {
    event_name: "notification",
    object_kind: "notification",
    action: "merge_when_pipeline_succeeds",
    user_id: ctx.caller.userId,
    project_id: row.projectId,
    merge_request: attrs,
  });
}

/** AutoMergeService#cancel's error when nothing is set. */
export const CANNOT_CANCEL_MESSAGE = "Can't cancel the automatic merge";

/**
 * GitLab's cancel_merge_when_pipeline_succeeds: whoever may merge, or the author (401 otherwise);
 * the answer is AutoMergeService#cancel's result, an error (406) when no auto-merge is set.
 */
export const cancelAutoMerge =
  (deps: CollabDeps) =>
  async (req: CancelAutoMergeRequest): Promise<CancelAutoMergeResponse> => {
    const ref = req.ref;
    const ctx = await loadMergeContext(deps, ref?.actor ?? null, ref?.project ?? "", Number(ref?.mergeRequestIid ?? 0));
    const status = await mergeStatusOf(deps, ctx.mr, ctx.project, ctx.caller);
    const isAuthor = ctx.caller.userId > 0 && ctx.caller.userId === ctx.mr.authorId;
    if (!status.canMerge && !isAuthor) throw unauthenticated();
    if (!ctx.mr.mergeWhenPipelineSucceeds) return { status: "error", message: CANNOT_CANCEL_MESSAGE, httpStatus: 406 };
    await deps.prisma.$transaction(async (tx) => {
      ctx.mr = await tx.mergeRequest.update({
        where: { id: ctx.mr.id },
        data: { mergeWhenPipelineSucceeds: false, mergeUserId: null, autoMergeSha: null, autoMergeParams: Prisma.DbNull },
      });
      await systemNote(tx, ctx, AUTO_MERGE_CANCELED_BODY);
    });
    return { status: "success", message: "", httpStatus: 0 };
  };

/**
 * The pipeline consumer's hook (MergeWhenPipelineSucceedsService#process): when a pipeline
 * succeeds, every open merge request waiting on it as its head pipeline is merged with the params
 * stored, as its merge user, if it is mergeable then.
 */
export async function processAutoMerges(deps: CollabDeps, pipeline: CiPipeline): Promise<void> {
  if (pipeline.status !== "success" && pipeline.status !== "skipped") return;
  const waiting = await deps.prisma.mergeRequest.findMany({
    where: { sourceProjectId: pipeline.projectId, state: "opened", mergeWhenPipelineSucceeds: true, headSha: pipeline.sha },
  });
  for (const mr of waiting) {
    if (pipeline.ref !== mr.sourceBranch && pipeline.ref !== mergeRequestHeadRef(mr.iid)) continue;
    const stored = mr.autoMergeParams as unknown as AutoMergeParams | null;
    if (!stored || !mr.mergeUserId) continue;
    try {
      const ctx = await loadMergeContext(deps, { userId: mr.mergeUserId, isAdmin: stored.isAdmin, system: "", ipAddress: "" }, String(mr.projectId), mr.iid);
      const status = await mergeStatusOf(deps, ctx.mr, ctx.project, ctx.caller);
      // Only the head pipeline counts: a newer pipeline for the same head may still run.
      if (status.headPipelineId !== pipeline.id) continue;
      if (!status.canMerge || failingCheck(status.facts) !== null) {
        deps.log.info({ mergeRequestId: mr.id, check: failingCheck(status.facts) }, "auto-merge waits: merge request not mergeable");
        continue;
      }
      await performMerge(deps, ctx, { ...stored.params, sha: mr.headSha ?? "" }, stored.pusher, status.check?.targetSha ?? "");
    } catch (err) {
      deps.log.warn({ err, mergeRequestId: mr.id }, "auto-merge failed");
    }
  }
}
