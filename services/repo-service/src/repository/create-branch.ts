import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { Branch__Output as Branch } from "@quarry/proto/types/repo/v1/Branch";
import type { CreateBranchRequest__Output } from "@quarry/proto/types/repo/v1/CreateBranchRequest";
import type { RepoDeps } from "../deps.ts";
import { branchHead, defaultBranchOf, HEADS, mergedBranches, requireContext, toBranch } from "./branches.ts";
import { readCommit } from "./commits.ts";
import { isRepository, isValidBranchName, NULL_SHA, resolveCommit } from "./git.ts";
import { changeRefWithEvent, RefUpdateError } from "./ref-change.ts";
import { BranchProtection } from "./protection.ts";
import { repositoryPath } from "./validate.ts";

/**
 * Creates `refs/heads/<name>` at the commit `ref` resolves to (a branch, tag or sha) and records
 * its push event (before = null sha, no commits: the history already exists). The ref is created
 * with a compare-and-swap against the null sha, so of two racing creators one gets
 * "Branch already exists".
 */
export const createBranch =
  (deps: RepoDeps) =>
  async (req: CreateBranchRequest__Output): Promise<Branch> => {
    const dir = repositoryPath(deps.storageRoot, req.diskPath);
    if (!req.name) throw paramError("branch is missing");
    if (!req.ref) throw paramError("ref is missing");
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");
    if (/\s/.test(req.name) || !(await isValidBranchName(req.name))) throw badRequest("Branch name is invalid");
    if (await branchHead(dir, req.name)) throw badRequest("Branch already exists");
    const sha = await resolveCommit(dir, req.ref);
    if (!sha) throw badRequest(`Invalid reference name: ${req.ref}`);
    const [commit, protection] = await Promise.all([readCommit(dir, sha), BranchProtection.load(deps, context.projectId)]);

    const ref = HEADS + req.name;
    try {
      await changeRefWithEvent(
        deps,
        dir,
        { ref, oldSha: NULL_SHA, newSha: sha },
        { context, checkoutSha: sha, commits: [], refProtected: protection.isProtected(req.name) },
      );
    } catch (err) {
      if (err instanceof RefUpdateError) {
        if (await branchHead(dir, req.name)) throw badRequest("Branch already exists");
        // e.g. "refs/heads/a" exists, so "a/b" cannot (or the other way round).
        throw badRequest(`Failed to create branch '${req.name}': ${err.reason}`);
      }
      throw err;
    }

    const defaultBranch = await defaultBranchOf(dir, context.defaultBranch);
    const merged = await mergedBranches(dir, defaultBranch, [req.name]);
    return toBranch(req.name, commit, merged, defaultBranch, protection, context.accessLevel);
  };
