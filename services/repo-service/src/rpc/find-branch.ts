import { notFound } from "@quarry/grpc";
import type { Branch__Output as Branch } from "@quarry/proto/types/repo/v1/Branch";
import type { FindBranchRequest__Output } from "@quarry/proto/types/repo/v1/FindBranchRequest";
import type { RepoDeps } from "../deps.ts";
import { mergedHeads, toBranch } from "../refs/branches.ts";
import { readApiCommits } from "../git/commit-objects.ts";
import { isPlausibleBranchName, isRepository } from "../git/git.ts";
import { BranchProtection } from "../protection/protection.ts";
import { refSnapshot, snapshotBranchHead } from "../refs/ref-cache.ts";

/**
 * One branch with its head commit; `404 Branch Not Found` when there is none by that exact name.
 * Heads come from the refs kept in memory, the commit from the cache of commits by id and
 * `merged` from the cache per commit pair: a repeated read starts no git process.
 */
export const findBranch =
  (deps: RepoDeps) =>
  async (req: FindBranchRequest__Output): Promise<Branch> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    if (!isPlausibleBranchName(req.name)) throw notFound("Branch");
    const refs = await refSnapshot(dir);
    const sha = snapshotBranchHead(refs, req.name);
    if (!sha) throw notFound("Branch");
    const defaultBranch = req.defaultBranch || refs.head;
    const heads = new Map([[req.name, sha]]);
    const reread = async () => new Map([[req.name, snapshotBranchHead(await refSnapshot(dir), req.name)]]);
    const [commits, merged, protection] = await Promise.all([
      readApiCommits(deps.catFile, dir, [sha]),
      mergedHeads(dir, snapshotBranchHead(refs, defaultBranch), heads, reread),
      BranchProtection.cached(deps, req.projectId),
    ]);
    const commit = commits.get(sha);
    // A branch pointing at something other than a commit is not shown.
    if (!commit) throw notFound("Branch");
    return toBranch(req.name, commit, merged, defaultBranch, protection, req.accessLevel);
  };
