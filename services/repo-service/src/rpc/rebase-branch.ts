// RebaseBranch: a merge request's rebase without a work tree. The source's own commits (those the
// target lacks, merges left out, oldest first as `git rebase` takes them) are replayed one by one
// onto the target's head with the three-way tree merge CherryPickCommit uses (base = the
// commit's parent); a commit whose change is already there is dropped, as `git rebase` drops it.
// Authors and messages stay, the committer is the request's. The source branch moves with a
// compare-and-swap from the head the caller expected, with its push event.
// Protected-branch rules are the caller's to check.
import { notFound } from "@quarry/grpc";
import type { RebaseBranchRequest__Output } from "@quarry/proto/types/repo/v1/RebaseBranchRequest";
import type { RebaseBranchResponse } from "@quarry/proto/types/repo/v1/RebaseBranchResponse";
import type { RepoDeps } from "../deps.ts";
import { readCommit } from "../git/commits.ts";
import { git, isRepository } from "../git/git.ts";
import { requireContext } from "../refs/branches.ts";
import { commitTree, treeOf } from "../writes/commit-writer.ts";
import { assertExpectedHead, conflictError, identityOr, isAncestor, moveBranchWithEvent, pickTrees, rawMessage, requireBranch } from "../writes/merge.ts";

export const rebaseBranch =
  (deps: RepoDeps) =>
  async (req: RebaseBranchRequest__Output): Promise<RebaseBranchResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const source = await requireBranch(dir, req.sourceBranch, "source_branch");
    assertExpectedHead(req.sourceBranch, source, req.expectedSourceSha);
    const target = await requireBranch(dir, req.targetBranch, "target_branch");
    if (await isAncestor(dir, target, source)) return { rebasedSha: source, replayedCount: 0 };

    const committer = identityOr(context, req.committer);
    const { stdout } = await git(["rev-list", "--reverse", "--topo-order", "--no-merges", source, `^${target}`, "--"], { gitDir: dir });
    const picks = stdout.split("\n").filter(Boolean);
    let head = target;
    let headTree = await treeOf(dir, target);
    let replayed = 0;
    for (const sha of picks) {
      const commit = await readCommit(dir, sha);
      const [parentTree, pickedTree] = await Promise.all([treeOf(dir, commit.parentIds[0] ?? ""), treeOf(dir, sha)]);
      const merged = await pickTrees(dir, parentTree, headTree, pickedTree);
      if (!merged.clean) throw conflictError("Rebase", merged.conflicts);
      if (merged.tree === headTree) continue;
      head = await commitTree(dir, {
        tree: merged.tree,
        parents: [head],
        message: await rawMessage(dir, sha),
        author: { name: commit.authorName, email: commit.authorEmail, date: commit.authoredDate },
        committer,
      });
      headTree = merged.tree;
      replayed++;
    }
    await moveBranchWithEvent(deps, dir, context, req.sourceBranch, source, head);
    return { rebasedSha: head, replayedCount: replayed };
  };
