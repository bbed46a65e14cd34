import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { failedPrecondition, notFound, paramError } from "@quarry/grpc";
import type { DeleteBranchRequest__Output } from "@quarry/proto/types/repo/v1/DeleteBranchRequest";
import type { DeleteBranchResponse } from "@quarry/proto/types/repo/v1/DeleteBranchResponse";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { RepoDeps } from "../deps.ts";
import { branchHead, requireContext } from "../refs/branches.ts";
import { headBranch, isRepository, NULL_SHA } from "../git/git.ts";
import { changeRefWithEvent, RefUpdateError } from "../events/ref-change.ts";
import { BranchProtection } from "../protection/protection.ts";

/** Attempts when the branch moves between reading its head and the compare-and-swap. */
const ATTEMPTS = 3;

/**
 * Deletes a branch (compare-and-swap against the head just read) and records its push event
 * (after = null sha, checkout_sha null). The default branch — the context's, and the one HEAD
 * points at — and protected branches are refused with 405, as GitLab does.
 */
export const deleteBranch =
  (deps: RepoDeps) =>
  async (req: DeleteBranchRequest__Output): Promise<DeleteBranchResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!req.name) throw paramError("branch is missing");
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");
    let sha = await branchHead(dir, req.name);
    if (!sha) throw notFound("Branch");
    if (req.name === context.defaultBranch || req.name === (await headBranch(dir))) {
      throw failedPrecondition("The default branch of a project cannot be deleted.", 405);
    }
    const protection = await BranchProtection.load(deps, context.projectId, req.protectedPatterns);
    if (protection.isProtected(req.name)) throw failedPrecondition("Protected branch cant be removed", 405);

    for (let attempt = 1; ; attempt++) {
      try {
        await deleteBranchRef(deps, dir, req.name, sha, context);
        return {};
      } catch (err) {
        if (!(err instanceof RefUpdateError) || attempt >= ATTEMPTS) throw err;
        sha = await branchHead(dir, req.name);
        if (!sha) throw notFound("Branch");
      }
    }
  };

/**
 * Deletes `refs/heads/<name>` if it still points at `sha`, with its push event. Throws RefUpdateError
 * otherwise. Callers delete only unprotected branches, so the event's ref_protected is false
 * without asking the rules again.
 */
export function deleteBranchRef(deps: RepoDeps, dir: string, name: string, sha: string, context: PushContext): Promise<void> {
  return changeRefWithEvent(
    deps,
    dir,
    { ref: BRANCH_REF_PREFIX + name, oldSha: sha, newSha: NULL_SHA },
    { context, checkoutSha: null, commits: [], refProtected: false },
  );
}
