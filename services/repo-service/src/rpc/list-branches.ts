import { pagination } from "@quarry/database";
import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { notFound } from "@quarry/grpc";
import type { ListBranchesRequest__Output } from "@quarry/proto/types/repo/v1/ListBranchesRequest";
import type { ListBranchesResponse__Output as ListBranchesResponse } from "@quarry/proto/types/repo/v1/ListBranchesResponse";
import type { RepoDeps } from "../deps.ts";
import { compareNames, mergedHeads, nameFilter, toBranch } from "../refs/branches.ts";
import { readApiCommits } from "../git/commit-objects.ts";
import { isRepository } from "../git/git.ts";
import { BranchProtection } from "../protection/protection.ts";
import { refSnapshot } from "../refs/ref-cache.ts";

/**
 * Branches sorted by name (an exact `search` match first, as GitLab does), filtered by `search`
 * or `regex`, one page of them. Names and heads come from the refs kept in memory, the page's
 * commits from the cache of commits by id (misses through the cat-file pool); `merged` is cached
 * per commit pair, so a repeated listing reads no file and starts no git process.
 */
export const listBranches =
  (deps: RepoDeps) =>
  async (req: ListBranchesRequest__Output): Promise<ListBranchesResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const filter = nameFilter(req.search, req.regex);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const { head, heads } = await refSnapshot(dir);
    const names = filter([...heads.keys()].map((ref) => ref.slice(BRANCH_REF_PREFIX.length)).sort(compareNames));
    const { offset, limit } = pagination(req.page, req.perPage);
    const page = names.slice(offset, offset + limit);
    const defaultBranch = req.defaultBranch || head;
    const pageHeads = new Map(page.map((n) => [n, heads.get(BRANCH_REF_PREFIX + n)!]));
    const reread = async () => {
      const now = (await refSnapshot(dir)).heads;
      return new Map(page.map((n) => [n, now.get(BRANCH_REF_PREFIX + n) ?? ""]));
    };
    const [commits, merged, protection] = await Promise.all([
      readApiCommits(deps.catFile, dir, pageHeads.values()),
      mergedHeads(dir, heads.get(BRANCH_REF_PREFIX + defaultBranch) ?? "", pageHeads, reread),
      BranchProtection.cached(deps, req.projectId),
    ]);
    return {
      branches: page.flatMap((name) => {
        const commit = commits.get(pageHeads.get(name)!);
        // Gone since the names were read, or not pointing at a commit.
        return commit ? [toBranch(name, commit, merged, defaultBranch, protection, req.accessLevel)] : [];
      }),
      total: names.length,
    };
  };
