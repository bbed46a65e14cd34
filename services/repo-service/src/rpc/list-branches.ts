import { pagination } from "@quarry/database";
import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { notFound } from "@quarry/grpc";
import type { ListBranchesRequest__Output } from "@quarry/proto/types/repo/v1/ListBranchesRequest";
import type { ListBranchesResponse__Output as ListBranchesResponse } from "@quarry/proto/types/repo/v1/ListBranchesResponse";
import type { RepoDeps } from "../deps.ts";
import { compareNames, mergedHeads, nameFilter, toBranch } from "../refs/branches.ts";
import type { Commit } from "../git/commits.ts";
import { parseCommitObject, toApiCommit } from "../git/commit-objects.ts";
import { isRepository, readBranchHeads } from "../git/git.ts";
import { BranchProtection } from "../protection/protection.ts";

/**
 * Branches sorted by name (an exact `search` match first, as GitLab does), filtered by `search`
 * or `regex`, one page of them. Names and heads come from the ref files and the page's commits
 * from the cat-file pool (no process); `merged` is cached per commit pair, so a repeated listing
 * starts no git process at all.
 */
export const listBranches =
  (deps: RepoDeps) =>
  async (req: ListBranchesRequest__Output): Promise<ListBranchesResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const filter = nameFilter(req.search, req.regex);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const { head, heads } = await readBranchHeads(dir);
    const names = filter([...heads.keys()].map((ref) => ref.slice(BRANCH_REF_PREFIX.length)).sort(compareNames));
    const { offset, limit } = pagination(req.page, req.perPage);
    const page = names.slice(offset, offset + limit);
    const defaultBranch = req.defaultBranch || head;
    const pageHeads = new Map(page.map((n) => [n, heads.get(BRANCH_REF_PREFIX + n)!]));
    const reread = async () => {
      const now = (await readBranchHeads(dir)).heads;
      return new Map(page.map((n) => [n, now.get(BRANCH_REF_PREFIX + n) ?? ""]));
    };
    const [commits, merged, protection] = await Promise.all([
      readHeadCommits(deps, dir, pageHeads),
      mergedHeads(dir, heads.get(BRANCH_REF_PREFIX + defaultBranch) ?? "", pageHeads, reread),
      BranchProtection.load(deps, req.projectId),
    ]);
    return {
      branches: page.flatMap((name) => {
        const commit = commits.get(name);
        // Gone since the names were read, or not pointing at a commit.
        return commit ? [toBranch(name, commit, merged, defaultBranch, protection, req.accessLevel)] : [];
      }),
      total: names.length,
    };
  };

/** The commits the page's heads point at (name → commit), read through the cat-file pool. */
async function readHeadCommits(deps: RepoDeps, dir: string, heads: ReadonlyMap<string, string>): Promise<Map<string, Commit>> {
  const entries = await deps.catFile.use(dir, (p) =>
    Promise.all(
      [...heads].map(async ([name, sha]) => {
        const obj = await p.read(sha);
        return [name, obj?.type === "commit" ? toApiCommit(parseCommitObject(obj.oid, obj.data)) : null] as const;
      }),
    ),
  );
  return new Map(entries.filter((e): e is readonly [string, Commit] => e[1] !== null));
}
