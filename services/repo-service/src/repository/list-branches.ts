import { notFound } from "@quarry/grpc";
import type { ListBranchesRequest__Output } from "@quarry/proto/types/repo/v1/ListBranchesRequest";
import type { ListBranchesResponse__Output as ListBranchesResponse } from "@quarry/proto/types/repo/v1/ListBranchesResponse";
import type { RepoDeps } from "../deps.ts";
import { compareNames, HEADS, mergedHeads, nameFilter, pagination, toBranch } from "./branches.ts";
import { readRefCommits } from "./commits.ts";
import { isRepository, readBranchHeads } from "./git.ts";
import { BranchProtection } from "./protection.ts";
import { repositoryPath } from "./validate.ts";

/**
 * Branches sorted by name (an exact `search` match first, as GitLab does), filtered by `search`
 * or `regex`, one page of them. The names come from
 * the ref files (no process); the page's commits from one `git for-each-ref`, and `merged` from
 * one `git for-each-ref --merged`, run side by side.
 */
export const listBranches =
  (deps: RepoDeps) =>
  async (req: ListBranchesRequest__Output): Promise<ListBranchesResponse> => {
    const dir = repositoryPath(deps.storageRoot, req.diskPath);
    const filter = nameFilter(req.search, req.regex);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const { head, heads } = await readBranchHeads(dir);
    const names = filter([...heads.keys()].map((ref) => ref.slice(HEADS.length)).sort(compareNames));
    const { offset, limit } = pagination(req.page, req.perPage);
    const page = names.slice(offset, offset + limit);
    const defaultBranch = req.defaultBranch || head;
    const pageHeads = new Map(page.map((n) => [n, heads.get(HEADS + n)!]));
    const reread = async () => {
      const now = (await readBranchHeads(dir)).heads;
      return new Map(page.map((n) => [n, now.get(HEADS + n) ?? ""]));
    };
    const [commits, merged, protection] = await Promise.all([
      readRefCommits(dir, page.map((n) => HEADS + n)),
      mergedHeads(dir, heads.get(HEADS + defaultBranch) ?? "", pageHeads, reread),
      BranchProtection.load(deps, req.projectId),
    ]);
    return {
      branches: page.flatMap((name) => {
        const commit = commits.get(HEADS + name);
        // Gone since the names were read, or not pointing at a commit.
        return commit ? [toBranch(name, commit, merged, defaultBranch, protection, req.accessLevel)] : [];
      }),
      total: names.length,
    };
  };
