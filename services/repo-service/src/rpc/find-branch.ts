import { notFound } from "@quarry/grpc";
import type { Branch__Output as Branch } from "@quarry/proto/types/repo/v1/Branch";
import type { FindBranchRequest__Output } from "@quarry/proto/types/repo/v1/FindBranchRequest";
import type { RepoDeps } from "../deps.ts";
import { defaultBranchOf, mergedBranches, toBranch } from "../refs/branches.ts";
import { readBranchCommit } from "../git/commits.ts";
import { isPlausibleBranchName, isRepository } from "../git/git.ts";
import { BranchProtection } from "../protection/protection.ts";

/** One branch with its head commit; `404 Branch Not Found` when there is none by that exact name. */
export const findBranch =
  (deps: RepoDeps) =>
  async (req: FindBranchRequest__Output): Promise<Branch> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    if (!isPlausibleBranchName(req.name)) throw notFound("Branch");
    const defaultBranch = await defaultBranchOf(dir, req.defaultBranch);
    const [commit, merged, protection] = await Promise.all([
      readBranchCommit(dir, req.name),
      mergedBranches(dir, defaultBranch, [req.name]),
      BranchProtection.load(deps, req.projectId),
    ]);
    if (!commit) throw notFound("Branch");
    return toBranch(req.name, commit, merged, defaultBranch, protection, req.accessLevel);
  };
