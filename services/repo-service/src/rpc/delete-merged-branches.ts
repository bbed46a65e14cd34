import { notFound } from "@quarry/grpc";
import type { DeleteMergedBranchesRequest__Output } from "@quarry/proto/types/repo/v1/DeleteMergedBranchesRequest";
import type { DeleteMergedBranchesResponse__Output as DeleteMergedBranchesResponse } from "@quarry/proto/types/repo/v1/DeleteMergedBranchesResponse";
import type { RepoDeps } from "../deps.ts";
import { compareNames, mergedBranches, requireContext } from "../refs/branches.ts";
import { headBranch, isRepository } from "../git/git.ts";
import { deleteBranchRef } from "./delete-branch.ts";
import { RefUpdateError } from "../events/ref-change.ts";
import { BranchProtection } from "../protection/protection.ts";

/**
 * Deletes every branch merged into the default branch (GitLab's sense: reachable from its head
 * but not that same commit), except the default branch and protected ones. Each deletion is a
 * compare-and-swap against the head read by the one `for-each-ref --merged`, with its own push
 * event; a branch that moved meanwhile is kept. Returns the deleted names, sorted.
 */
export const deleteMergedBranches =
  (deps: RepoDeps) =>
  async (req: DeleteMergedBranchesRequest__Output): Promise<DeleteMergedBranchesResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const head = await headBranch(dir);
    const defaultBranch = context.defaultBranch || head;
    const [merged, protection] = await Promise.all([
      mergedBranches(dir, defaultBranch, "all"),
      BranchProtection.load(deps, context.projectId, req.protectedPatterns),
    ]);
    const deleted: string[] = [];
    for (const name of [...merged.keys()].sort(compareNames)) {
      if (name === defaultBranch || name === head || protection.isProtected(name)) continue;
      try {
        await deleteBranchRef(deps, dir, name, merged.get(name)!, context);
        deleted.push(name);
      } catch (err) {
        if (!(err instanceof RefUpdateError)) throw err;
        deps.log.info({ branch: name, reason: err.reason }, "merged branch changed meanwhile; kept");
      }
    }
    return { deleted };
  };
