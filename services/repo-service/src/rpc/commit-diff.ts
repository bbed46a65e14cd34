import { pagination } from "@quarry/database";
import type { CommitDiffRequest__Output as CommitDiffRequest } from "@quarry/proto/types/repo/v1/CommitDiffRequest";
import type { CommitDiffResponse__Output as CommitDiffResponse } from "@quarry/proto/types/repo/v1/CommitDiffResponse";
import type { RepoDeps } from "../deps.ts";

import { requireCommit } from "../git/commit-objects.ts";
import { COMMIT_DIFF_LIMITS, emptyTree, readDiffs } from "../git/diffs.ts";

/**
 * The diff of a commit against its first parent (a root commit against the empty tree), one
 * page of it. Past GitLab's diff limits the list simply ends, as GitLab's does.
 */
export const commitDiff =
  (deps: RepoDeps) =>
  async (req: CommitDiffRequest): Promise<CommitDiffResponse> => {
    const { dir, commit } = await requireCommit(deps, req.diskPath, req.revision);
    const all = await readDiffs(dir, commit.parents[0] ?? emptyTree(commit.oid), commit.oid, { limits: COMMIT_DIFF_LIMITS });
    // Files past the limits (collapsed) are left out: GitLab's commit diff list just ends there.
    const diffs = all.diffs.filter((d) => !d.collapsed);
    const { offset, limit } = pagination(req.page, req.perPage);
    return { diffs: diffs.slice(offset, offset + limit), total: diffs.length };
  };
