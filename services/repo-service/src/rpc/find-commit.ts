import type { CommitWithStats__Output as CommitWithStats } from "@quarry/proto/types/repo/v1/CommitWithStats";
import type { FindCommitRequest__Output as FindCommitRequest } from "@quarry/proto/types/repo/v1/FindCommitRequest";
import type { RepoDeps } from "../deps.ts";
import { requireCommit, toApiCommit } from "../git/commit-objects.ts";
import { commitStats } from "../git/commit-stats.ts";

/** One commit read from its object (no process), with its stats (one `git diff-tree`) when asked. */
export const findCommit =
  (deps: RepoDeps) =>
  async (req: FindCommitRequest): Promise<CommitWithStats> => {
    const { dir, commit: parsed } = await requireCommit(deps, req.diskPath, req.revision);
    const commit = toApiCommit(parsed);
    const stats = req.stats ? ((await commitStats(dir, [commit])).get(commit.id) ?? null) : null;
    return { commit, stats };
  };
