// GitLab's PUT /projects/:id/merge_requests/:merge_request_iid/merge (lib/api/merge_requests.rb
// with MergeRequests::MergeService and AutoMergeService): merge now, or set auto-merge while the
// head pipeline runs.
import { conflict, unauthenticated } from "@quarry/grpc";
import type { MergeMergeRequestRequest__Output as MergeMergeRequestRequest } from "@quarry/proto/types/collab/v1/MergeMergeRequestRequest";
import type { MergeRequest as MergeRequestMessage } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { CollabDeps } from "../deps.ts";
import { autoMergeAvailable, enableAutoMerge } from "./auto-merge.ts";
import { loadMergeContext, type MergeContext, type StoredPusher } from "./merge-merge-request-context.ts";
import { mergeRequestMessageFor } from "./merge-merge-request-glue.ts";
import { CANNOT_BE_MERGED, METHOD_NOT_ALLOWED, performMerge, type MergeParams } from "./merge-merge-request-perform.ts";
import { failingCheck, mergeStatusOf, type MergeStatus } from "./merge-status.ts";

export const mergeMergeRequest =
  (deps: CollabDeps) =>
  async (req: MergeMergeRequestRequest): Promise<MergeRequestMessage> => {
    const ref = req.ref;
    const ctx = await loadMergeContext(deps, ref?.actor ?? null, ref?.project ?? "", Number(ref?.mergeRequestIid ?? 0));
    const status = await mergeStatusOf(deps, ctx.mr, ctx.project, ctx.caller);
    // Merge request can not be merged because the user doesn't have permissions to push into target branch.
    if (!status.canMerge) throw unauthenticated();
    // build_merge_params: the sha is checked first, then squash is remembered.
    if (req.sha !== undefined && req.sha !== (ctx.mr.headSha ?? "")) {
      throw conflict(`SHA does not match HEAD of source branch: ${ctx.mr.headSha ?? ""}`);
    }
    if (req.squash && !ctx.mr.squash) {
      ctx.mr = await deps.prisma.mergeRequest.update({ where: { id: ctx.mr.id }, data: { squash: true } });
    }
    const params: MergeParams = {
      commitMessage: req.mergeCommitMessage,
      squashCommitMessage: req.squashCommitMessage,
      shouldRemoveSourceBranch: req.shouldRemoveSourceBranch,
      sha: req.sha ?? ctx.mr.headSha ?? "",
    };
    const pusher: StoredPusher | null = req.pusher;

    // execute_merge
    if (req.autoMerge) {
      if (autoMergeAvailable(status)) {
        await enableAutoMerge(deps, ctx, params, pusher);
      } else if (!status.facts.headPipeline || status.facts.headPipeline.status === "success") {
        await mergeNow(deps, ctx, status, params, pusher);
      } else {
        throw METHOD_NOT_ALLOWED();
      }
    } else if (failingCheck(status.facts) === null) {
      await mergeNow(deps, ctx, status, params, pusher);
    } else {
      throw METHOD_NOT_ALLOWED();
    }
    return mergeRequestMessageFor(deps, ctx);
  };

/** execute_immediate_merge!: the checks again (422 when they fail), then the merge (422 when it fails). */
async function mergeNow(deps: CollabDeps, ctx: MergeContext, status: MergeStatus, params: MergeParams, pusher: StoredPusher | null): Promise<void> {
  if (failingCheck(status.facts) !== null) throw CANNOT_BE_MERGED();
  const merged = await performMerge(deps, ctx, params, pusher, status.check?.targetSha ?? "");
  if (!merged) throw CANNOT_BE_MERGED();
}
