// MergeToBranch: a merge request's merge without a work tree. The source is squashed first when
// asked (one commit on the merge base with the source's tree, as Gitaly's UserSquash), then
// merged: a merge commit of merge-tree's tree ("merge"), a fast-forward ("ff") or a merge commit
// of a source that already contains the target ("rebase_merge", GitLab's semi-linear history).
// The branch moves with a compare-and-swap from the head the caller expected, with its push event.
// Protected-branch rules are the caller's to check (who may merge is a merge request permission).
import { failedPrecondition, notFound, paramError } from "@quarry/grpc";
import type { MergeToBranchRequest__Output } from "@quarry/proto/types/repo/v1/MergeToBranchRequest";
import type { MergeToBranchResponse } from "@quarry/proto/types/repo/v1/MergeToBranchResponse";
import type { RepoDeps } from "../deps.ts";
import { requireContext } from "../refs/branches.ts";
import { isRepository } from "../git/git.ts";
import { commitTree, treeOf } from "../writes/commit-writer.ts";
import {
  assertExpectedHead,
  conflictError,
  identityOr,
  isAncestor,
  mergeBase,
  mergeCommits,
  moveBranchWithEvent,
  requireBranch,
  requireCommit,
} from "../writes/merge.ts";

const METHODS = new Set(["merge", "ff", "rebase_merge"]);

export const mergeToBranch =
  (deps: RepoDeps) =>
  async (req: MergeToBranchRequest__Output): Promise<MergeToBranchResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const context = requireContext(req.context);
    const method = req.mergeMethod || "merge";
    if (!METHODS.has(method)) throw paramError("merge_method does not have a valid value");
    if (req.squash && !req.squashCommitMessage) throw paramError("squash_commit_message is missing");
    if (method !== "ff" && !req.mergeCommitMessage) throw paramError("merge_commit_message is missing");
    if (!(await isRepository(dir))) throw notFound("Repository");
    const target = await requireBranch(dir, req.targetBranch, "target_branch");
    assertExpectedHead(req.targetBranch, target, req.expectedTargetSha);
    let source = await requireCommit(dir, req.sourceSha, "source_sha");
    const author = identityOr(context, req.author);
    const committer = identityOr(context, req.committer);

    let squashSha = "";
    if (req.squash) {
      const base = await mergeBase(dir, target, source);
      if (!base) throw failedPrecondition("Merge failed: the source and target branches have no common ancestor");
      // Nothing to squash when the source adds no commit: the merge below sees it as merged.
      if (base !== source) {
        squashSha = await commitTree(dir, { tree: await treeOf(dir, source), parents: [base], message: req.squashCommitMessage, author, committer });
        source = squashSha;
      }
    }

    const containsTarget = await isAncestor(dir, target, source);
    let newHead: string;
    let mergeSha = "";
    if (method === "ff") {
      if (!containsTarget) throw failedPrecondition("Merge failed: fast-forward is not possible; rebase the source branch onto the target branch");
      newHead = source;
    } else {
      let tree: string;
      if (method === "rebase_merge") {
        if (!containsTarget) throw failedPrecondition("Merge failed: the source branch must be rebased onto the target branch (semi-linear history)");
        tree = await treeOf(dir, source);
      } else {
        const merged = await mergeCommits(dir, target, source);
        if (merged.unrelated) throw failedPrecondition("Merge failed: the source and target branches have no common ancestor");
        if (!merged.clean) throw conflictError("Merge", merged.conflicts);
        tree = merged.tree;
      }
      mergeSha = await commitTree(dir, { tree, parents: [target, source], message: req.mergeCommitMessage, author, committer });
      newHead = mergeSha;
    }
    if (newHead !== target) await moveBranchWithEvent(deps, dir, context, req.targetBranch, target, newHead);
    return { mergeCommitSha: mergeSha, squashCommitSha: squashSha, targetSha: newHead };
  };
