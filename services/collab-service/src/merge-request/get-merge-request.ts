import type { GetMergeRequestRequest__Output } from "@quarry/proto/types/collab/v1/GetMergeRequestRequest";
import type { MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { CollabDeps } from "../deps.ts";
import { findVisibleMergeRequest } from "./access.ts";
import { toMergeRequestMessages } from "./entity.ts";

/**
 * GET /projects/:id/merge_requests/:merge_request_iid (find_merge_request_with_access):
 * `404 Not found` for an unknown iid, 403 when the caller may not read merge requests.
 * diverged_commits_count (commits the target has that the source lacks) only when asked.
 */
export const getMergeRequest =
  (deps: CollabDeps) =>
  async (req: GetMergeRequestRequest__Output): Promise<MergeRequest> => {
    const scope = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    const [message] = await toMergeRequestMessages(deps, deps.prisma, [scope.mr], scope);
    if (req.includeDivergedCommitsCount) message!.divergedCommitsCount = await divergedCommitsCount(deps, scope);
    return message!;
  };

/** MergeRequest#diverged_commits_count: commits on the target branch not in the source (0 when either branch is gone). */
async function divergedCommitsCount(deps: CollabDeps, scope: Awaited<ReturnType<typeof findVisibleMergeRequest>>): Promise<number> {
  const { mr, project } = scope;
  try {
    const cmp = await deps.repo.CompareRefs({ diskPath: project.diskPath, from: mr.sourceBranch, to: mr.targetBranch, straight: false, fromDiskPath: "" });
    return cmp.commits.length;
  } catch {
    return 0;
  }
}
