import { pagination } from "@quarry/database";
import { BRANCH_REF_PREFIX, TAG_REF_PREFIX } from "@quarry/gitlab";
import type { ListCommitRefsRequest__Output as ListCommitRefsRequest } from "@quarry/proto/types/repo/v1/ListCommitRefsRequest";
import type { ListCommitRefsResponse__Output as ListCommitRefsResponse } from "@quarry/proto/types/repo/v1/ListCommitRefsResponse";
import type { RepoDeps } from "../deps.ts";

import { requireCommit } from "../git/commit-objects.ts";
import { git } from "../git/git.ts";

const PREFIXES = { branch: BRANCH_REF_PREFIX, tag: TAG_REF_PREFIX } as const;

/**
 * Branches, then tags, whose history contains the commit (sorted by name), one page. Like GitLab
 * only as many refs as the pages so far need (plus one, to tell whether more follow) are listed,
 * with one `git for-each-ref --contains`: refs/heads/ sorts before refs/tags/.
 */
export const listCommitRefs =
  (deps: RepoDeps) =>
  async (req: ListCommitRefsRequest): Promise<ListCommitRefsResponse> => {
    const { dir, commit } = await requireCommit(deps, req.diskPath, req.revision);
    const { offset, limit } = pagination(req.page, req.perPage);
    const types: (keyof typeof PREFIXES)[] = req.type === "branch" || req.type === "tag" ? [req.type] : ["branch", "tag"];
    const { stdout } = await git(
      ["for-each-ref", `--contains=${commit.oid}`, `--count=${offset + limit + 1}`, "--format=%(refname)%00", ...types.map((t) => PREFIXES[t])],
      { gitDir: dir },
    );
    const refs = stdout
      .split("\0")
      .map((line) => line.replace(/^\n/, ""))
      .filter(Boolean)
      .map((ref) =>
        ref.startsWith(PREFIXES.branch) ? { type: "branch", name: ref.slice(PREFIXES.branch.length) } : { type: "tag", name: ref.slice(PREFIXES.tag.length) },
      );
    return { refs: refs.slice(offset, offset + limit), hasMore: refs.length > offset + limit };
  };
