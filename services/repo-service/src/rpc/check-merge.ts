// CheckMerge: what merging a commit into a branch would do (merge base, ahead/behind,
// fast-forward, conflicts), for merge requests' mergeability; merge-tree writes objects, no ref.
import { notFound } from "@quarry/grpc";
import type { CheckMergeRequest__Output } from "@quarry/proto/types/repo/v1/CheckMergeRequest";
import type { CheckMergeResponse } from "@quarry/proto/types/repo/v1/CheckMergeResponse";
import type { RepoDeps } from "../deps.ts";
import { isRepository } from "../git/git.ts";
import { isAncestor, leftRightCounts, mergeBase, mergeCommits, requireBranch, requireCommit } from "../writes/merge.ts";

export const checkMerge =
  (deps: RepoDeps) =>
  async (req: CheckMergeRequest__Output): Promise<CheckMergeResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const target = await requireBranch(dir, req.targetBranch, "target_branch");
    const source = await requireCommit(dir, req.sourceSha, "source_sha");
    const [base, counts, alreadyMerged, canFastForward] = await Promise.all([
      mergeBase(dir, target, source),
      leftRightCounts(dir, target, source),
      isAncestor(dir, source, target),
      isAncestor(dir, target, source),
    ]);
    // Nothing to merge or a fast-forward cannot conflict; merge-tree only runs for diverged histories.
    const merge = alreadyMerged || canFastForward ? null : await mergeCommits(dir, target, source);
    return {
      targetSha: target,
      sourceSha: source,
      mergeBase: base,
      alreadyMerged,
      canFastForward,
      behindCount: counts.left,
      aheadCount: counts.right,
      hasConflicts: merge ? !merge.clean : false,
      conflictingPaths: merge?.conflicts ?? [],
    };
  };
