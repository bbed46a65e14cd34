import type { Empty } from "@quarry/proto/types/collab/v1/Empty";
import type { MergeRequestContextCommitsRequest__Output } from "@quarry/proto/types/collab/v1/MergeRequestContextCommitsRequest";
import type { CollabDeps } from "../deps.ts";
import { contextCommitsError, findCommits, findContextMergeRequest, INVALID_CONTEXT_COMMITS } from "./context-commits.ts";

/**
 * DELETE …/context_commits: the caller needs update_merge_request; every SHA must name a commit of
 * the repository (400 `One or more context commits' sha is not valid.` otherwise, nothing
 * removed); those attached are removed, the others ignored (MergeRequestContextCommit.delete_bulk).
 */
export const deleteMergeRequestContextCommits =
  (deps: CollabDeps) =>
  async (req: MergeRequestContextCommitsRequest__Output): Promise<Empty> => {
    const { mergeRequest, diskPath } = await findContextMergeRequest(deps, req.mergeRequest, true);
    const commits = await findCommits(deps, diskPath, req.commits);
    if (!commits) throw contextCommitsError(INVALID_CONTEXT_COMMITS);
    await deps.prisma.mergeRequestContextCommit.deleteMany({ where: { mergeRequestId: mergeRequest.id, sha: { in: commits.map((c) => c.id) } } });
    return {};
  };
