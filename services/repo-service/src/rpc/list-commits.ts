import { pagination } from "@quarry/database";
import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { ListCommitsRequest__Output as ListCommitsRequest } from "@quarry/proto/types/repo/v1/ListCommitsRequest";
import type { ListCommitsResponse__Output as ListCommitsResponse } from "@quarry/proto/types/repo/v1/ListCommitsResponse";
import type { RepoDeps } from "../deps.ts";

import { findCommitObject, toApiCommit, walkCommits } from "../git/commit-objects.ts";
import { commitStats } from "../git/commit-stats.ts";
import { logCommits, type Commit } from "../git/commits.ts";
import { GitError, isRepository } from "../git/git.ts";

/**
 * Beyond this many commits (offset + page + 1) `git log` is cheaper than one cat-file round trip
 * per commit.
 */
const MAX_WALK = 1000;

/** What git says when a revision of the request names nothing (the answer is then an empty list). */
const UNKNOWN_REVISION =
  /unknown revision|bad revision|ambiguous argument|bad object|invalid revision range|invalid symmetric difference|does not have any commits yet/i;

/** An ISO 8601 bound as seconds since the epoch (null when absent); `400 {"error": "<field> is invalid"}` otherwise. */
function timeBound(value: string, field: string): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw paramError(`${field} is invalid`);
  return Math.floor(ms / 1000);
}

/**
 * One page of `git log` for the request, without a total (GitLab shows none for commits).
 * A plain listing of one revision walks commit objects through the cat-file pool; anything with
 * filters, ranges, `all`, topo order or a deep offset runs `git log --skip --max-count`.
 * One more commit than the page is read to tell whether a next page exists.
 */
export const listCommits =
  (deps: RepoDeps) =>
  async (req: ListCommitsRequest): Promise<ListCommitsResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const ref = req.refName || req.defaultBranch || "HEAD";
    const since = timeBound(req.since, "since");
    const until = timeBound(req.until, "until");
    if (!(await isRepository(dir))) throw notFound("Repository");
    // GitLab refuses what could be read as an option or is not one revision word.
    if (!req.all && (ref.startsWith("-") || /[\s\0]/.test(ref))) throw badRequest("ref_name is invalid");
    const { offset, limit } = pagination(req.page, req.perPage);
    const plain = !req.all && !req.author && !req.firstParent && !req.topoOrder && !req.path && since === null && until === null && !ref.includes("..");
    let commits: Commit[];
    let hasMore: boolean;
    if (plain && offset + limit + 1 <= MAX_WALK) {
      const start = await findCommitObject(deps.catFile, dir, ref);
      const walked = start ? await walkCommits(deps.catFile, dir, start, offset + limit + 1) : [];
      commits = walked.slice(offset, offset + limit).map((c) => toApiCommit(c, { trailers: req.trailers }));
      hasMore = walked.length > offset + limit;
    } else {
      const args = [`--skip=${offset}`, `--max-count=${limit + 1}`];
      if (req.author) args.push(`--author=${req.author}`);
      if (req.firstParent) args.push("--first-parent");
      if (req.topoOrder) args.push("--topo-order");
      // Raw timestamps: inclusive bounds on the committer date, no date parsing by git.
      if (since !== null) args.push(`--max-age=${since}`);
      if (until !== null) args.push(`--min-age=${until}`);
      if (req.all) args.push("--all");
      args.push("--end-of-options");
      if (!req.all) args.push(ref);
      args.push("--");
      if (req.path) args.push(`:(literal)${req.path}`);
      const logged = await logCommits(dir, args).catch((err: unknown) => {
        if (err instanceof GitError && UNKNOWN_REVISION.test(err.stderr)) return [];
        throw err;
      });
      hasMore = logged.length > limit;
      commits = logged.slice(0, limit).map((c) => (req.trailers ? c : { ...c, trailers: {}, extendedTrailers: {} }));
    }
    const stats = req.withStats ? await commitStats(dir, commits) : null;
    return { commits: commits.map((commit) => ({ commit, stats: stats?.get(commit.id) ?? null })), hasMore };
  };
