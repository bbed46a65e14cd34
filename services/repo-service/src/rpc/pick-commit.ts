// Cherry-pick and revert without a work tree: a three-way merge of trees with
// `git merge-tree --write-tree`, then one commit on the branch (compare-and-swap + push event).
import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { notFound, paramError, ServiceError, status } from "@quarry/grpc";
import type { PickCommitRequest__Output } from "@quarry/proto/types/repo/v1/PickCommitRequest";
import type { PickCommitResponse } from "@quarry/proto/types/repo/v1/PickCommitResponse";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { RepoDeps } from "../deps.ts";
import { branchHead, requireContext } from "../refs/branches.ts";
import { readCommit, type Commit } from "../git/commits.ts";
import { actingUser, assertCanWrite, commitTree, publishCommit, treeOf, type Signature } from "../writes/commit-writer.ts";
import { isRepository, resolveCommit } from "../git/git.ts";
import { pickTrees } from "../writes/merge.ts";

export type PickKind = "cherry-pick" | "revert";

/** GitLab's ChangeError: 400 with error_code "empty" or "conflict" (and dry_run "error" for a dry run). */
function changeError(kind: PickKind, code: "empty" | "conflict", dryRun: boolean): ServiceError {
  const body: { message: string; error_code: string; dry_run?: string } = {
    message:
      `Commit ${kind} failed: Can't perform this action automatically. It may have already been done, ` +
      "or a more recent commit may have updated some of this content. Please perform this action locally.",
    error_code: code,
  };
  if (dryRun) body.dry_run = "error";
  return new ServiceError(status.INVALID_ARGUMENT, body);
}

interface PickStep {
  /** Base and "theirs" of the three-way merge, from the trees of the picked commit's first parent and its own. */
  trees(parentTree: string, pickedTree: string): { base: string; theirs: string };
  message(commit: Commit, requested: string): string;
  author(commit: Commit, context: PushContext): Signature;
}

const STEPS: Record<PickKind, PickStep> = {
  "cherry-pick": {
    trees: (parentTree, pickedTree) => ({ base: parentTree, theirs: pickedTree }),
    message: (c, requested) => requested || `${c.message.trimEnd()}\n\n(cherry picked from commit ${c.id})`,
    author: (c) => ({ name: c.authorName, email: c.authorEmail, date: c.authoredDate }),
  },
  revert: {
    trees: (parentTree, pickedTree) => ({ base: pickedTree, theirs: parentTree }),
    message: (c) => `Revert "${c.title.trim()}"\n\nThis reverts commit ${c.id}`,
    author: (_c, context) => actingUser(context),
  },
};

/**
 * The cherry-pick / revert RPC: the caller must be allowed to push to the branch (403), the
 * commit (404 Commit) and the branch (404 Branch) must exist. Merge commits are taken against
 * their first parent. A change that conflicts or changes nothing is refused; a dry run only checks.
 */
const pickCommit =
  (kind: PickKind) =>
  (deps: RepoDeps) =>
  async (req: PickCommitRequest__Output): Promise<PickCommitResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!req.branch) throw paramError("branch is missing");
    if (!req.sha) throw paramError("sha is missing");
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const refProtected = await assertCanWrite(deps, context, req.branch);
    const sha = await resolveCommit(dir, req.sha);
    if (!sha) throw notFound("Commit");
    const head = await branchHead(dir, req.branch);
    if (!head) throw notFound("Branch");

    const step = STEPS[kind];
    const commit = await readCommit(dir, sha);
    const [parentTree, pickedTree, headTree] = await Promise.all([treeOf(dir, commit.parentIds[0] ?? ""), treeOf(dir, sha), treeOf(dir, head)]);
    const { base, theirs } = step.trees(parentTree, pickedTree);
    // merge.ts's pickTrees: the trees in throwaway commits whose only common ancestor holds `base`.
    const merged = await pickTrees(dir, base, headTree, theirs);
    if (!merged.clean) throw changeError(kind, "conflict", req.dryRun);
    if (merged.tree === headTree) throw changeError(kind, "empty", req.dryRun);
    if (req.dryRun) return { commit: null };

    const created = await commitTree(dir, {
      tree: merged.tree,
      parents: [head],
      message: step.message(commit, req.message),
      author: step.author(commit, context),
      committer: actingUser(context),
    });
    const target = { branch: req.branch, ref: BRANCH_REF_PREFIX + req.branch, oldSha: head, baseSha: head, rewrite: false };
    return { commit: (await publishCommit(deps, dir, target, created, context, refProtected)).commit };
  };

/** CherryPickCommit: the picked commit's author stays, its message gets "(cherry picked from commit <sha>)". */
export const cherryPickCommit = pickCommit("cherry-pick");

/** RevertCommit: authored by the acting user, message `Revert "<title>"` + "This reverts commit <sha>". */
export const revertCommit = pickCommit("revert");
