import { pagination } from "@quarry/database";
import { notFound } from "@quarry/grpc";
import type { Contributor__Output as Contributor } from "@quarry/proto/types/repo/v1/Contributor";
import type { ListContributorsRequest__Output } from "@quarry/proto/types/repo/v1/ListContributorsRequest";
import type { ListContributorsResponse__Output as ListContributorsResponse } from "@quarry/proto/types/repo/v1/ListContributorsResponse";
import type { RepoDeps } from "../deps.ts";
import { git, isRepository } from "../git/git.ts";
import { resolveCommitOid } from "../git/trees.ts";

/** GitLab counts the authors of this many latest non-merge commits. */
export const CONTRIBUTOR_COMMITS = 2000;

/** Ruby's String#casecmp: ASCII letters compared case-insensitively, other characters by code. */
function casecmp(a: string, b: string): number {
  const x = a.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const y = b.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Repository#contributors' order (Commit.order_by); ties keep the newest-commit-first order. */
export function sortContributors(list: Contributor[], orderBy: string, sort: string): Contributor[] {
  const by = orderBy === "name" || orderBy === "email" || orderBy === "commits" ? orderBy : null;
  if (!by) return list;
  const dir = sort === "desc" ? -1 : 1;
  const cmp = (a: Contributor, b: Contributor) => (by === "commits" ? Number(a.commits) - Number(b.commits) : casecmp(String(a[by]), String(b[by])));
  return [...list].sort((a, b) => dir * cmp(a, b));
}

/**
 * Authors of a ref's latest non-merge commits, grouped by e-mail; each named after their newest
 * commit. Additions and deletions are 0, as GitLab reports them. Unknown ref: `404 Not Found`.
 */
export const listContributors =
  (deps: RepoDeps) =>
  async (req: ListContributorsRequest__Output): Promise<ListContributorsResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const sha = await resolveCommitOid(deps.catFile, dir, req.ref);
    if (!sha) throw notFound();
    const { stdout } = await git(["log", "--no-merges", `--max-count=${CONTRIBUTOR_COMMITS}`, "--format=%an%x00%ae%x00", sha, "--"], { gitDir: dir });
    const byEmail = new Map<string, Contributor>();
    const fields = stdout.split("\0");
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const name = fields[i]!.replace(/^\n/, "");
      const email = fields[i + 1]!;
      const c = byEmail.get(email) ?? { name: "", email, commits: 0, additions: 0, deletions: 0 };
      if (!c.name?.trim()) c.name = name;
      c.commits = Number(c.commits) + 1;
      byEmail.set(email, c);
    }
    const sorted = sortContributors([...byEmail.values()], req.orderBy || "commits", req.sort || "asc");
    const { offset, limit } = pagination(req.page, req.perPage);
    return { contributors: sorted.slice(offset, offset + limit), total: sorted.length };
  };
