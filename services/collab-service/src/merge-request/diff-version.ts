import { isNotFound } from "@quarry/grpc";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { Commit__Output as Commit } from "@quarry/proto/types/repo/v1/Commit";
import type { CollabDeps, Tx } from "../deps.ts";
import type { MergeRequestDiff } from "../generated/prisma/client.ts";

/** A diff version as read from the repository, before it is stored (GitLab's MergeRequestDiff). */
export interface CollectedDiff {
  headCommitSha: string;
  baseCommitSha: string;
  startCommitSha: string;
  /** Newest first, as merge_request_diff_commits. */
  commitShas: string[];
  /** "collected", "empty" or "overflow". */
  state: string;
  /** Files changed ("N+" past the diff limits, as real_size). */
  realSize: string;
  /** The commits themselves, oldest first (not stored: the system notes name them). */
  commits: Commit[];
}

/** A branch's head commit, or null when the branch does not exist. */
export async function branchHead(deps: CollabDeps, project: Project, name: string): Promise<string | null> {
  if (!name) return null;
  try {
    const b = await deps.repo.FindBranch({ diskPath: project.diskPath, name, defaultBranch: project.defaultBranch, projectId: project.id, accessLevel: 0 });
    return b.commit?.id ?? null;
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/**
 * Compares target...source as MergeRequestDiff#save_git_content does: the merge base, the
 * commits the source adds and the number of files changed; start is the target's head.
 */
export async function collectDiff(deps: CollabDeps, project: Project, sourceSha: string, targetSha: string): Promise<CollectedDiff> {
  const cmp = await deps.repo.CompareRefs({ diskPath: project.diskPath, from: targetSha, to: sourceSha, straight: false, fromDiskPath: "" });
  const files = cmp.diffs.length;
  const overflow = cmp.overflow || cmp.timedOut;
  return {
    headCommitSha: cmp.headSha || sourceSha,
    baseCommitSha: cmp.baseSha,
    startCommitSha: targetSha,
    commitShas: cmp.commits.map((c) => c.id).reverse(),
    state: cmp.commits.length === 0 && files === 0 ? "empty" : overflow ? "overflow" : "collected",
    realSize: overflow ? `${files}+` : String(files),
    commits: cmp.commits,
  };
}

/** Stores a collected diff as the merge request's newest version. */
export function recordDiff(tx: Tx, mergeRequestId: number, d: CollectedDiff): Promise<MergeRequestDiff> {
  const { headCommitSha, baseCommitSha, startCommitSha, commitShas, state, realSize } = d;
  return tx.mergeRequestDiff.create({ data: { mergeRequestId, headCommitSha, baseCommitSha, startCommitSha, commitShas, state, realSize } });
}

/**
 * Points refs/merge-requests/:iid/head at the source head (where CI and fetches find it). Failures
 * are logged, not raised: the record is already committed and the next push rewrites the ref.
 */
export async function writeHeadRef(deps: CollabDeps, project: Project, iid: number, sha: string): Promise<void> {
  try {
    await deps.repo.WriteMergeRequestRef({ diskPath: project.diskPath, iid, kind: "head", sha, expectedOldSha: "" });
  } catch (err) {
    deps.log.warn({ err, projectId: project.id, iid }, "writing the merge request head ref failed");
  }
}
