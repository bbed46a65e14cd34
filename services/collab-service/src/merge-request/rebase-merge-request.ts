// GitLab's PUT /projects/:id/merge_requests/:merge_request_iid/rebase (MergeRequests::RebaseService):
// the source branch's own commits are replayed onto the target's head by repo-service's
// RebaseBranch (no work tree, compare-and-swap on the source, push event). GitLab rebases in a
// worker and answers 202 at once; Quarry rebases before answering, so the answer says no rebase
// is in progress any more, and a conflict is left in merge_error as GitLab's worker leaves it.
import { conflict, forbidden } from "@quarry/grpc";
import type { RebaseMergeRequestRequest__Output as RebaseMergeRequestRequest } from "@quarry/proto/types/collab/v1/RebaseMergeRequestRequest";
import type { RebaseMergeRequestResponse } from "@quarry/proto/types/collab/v1/RebaseMergeRequestResponse";
import type { CollabDeps } from "../deps.ts";
import { loadMergeContext, pushContextFor } from "./merge-merge-request-context.ts";
import { ruleLevelOf } from "./merge-status.ts";

/** RebaseService::REBASE_ERROR. */
export const REBASE_ERROR = "Rebase failed: Rebase locally, resolve all conflicts, then push the branch.";
/** MergeRequest::RebaseLockTimeout's message. */
export const REBASE_LOCK_MESSAGE = "Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.";

/** Distinguishes this lock from other advisory locks on the same id. */
export const REBASE_LOCK_SPACE = 0x52424153; // "RBAS"

export const rebaseMergeRequest =
  (deps: CollabDeps) =>
  async (req: RebaseMergeRequestRequest): Promise<RebaseMergeRequestResponse> => {
    const ref = req.ref;
    const ctx = await loadMergeContext(deps, ref?.actor ?? null, ref?.project ?? "", Number(ref?.mergeRequestIid ?? 0));
    const { project, mr, caller } = ctx;
    // RebaseService#validate: the source must exist and the caller may push it.
    let canPush = false;
    try {
      const branch = await deps.repo.FindBranch({
        diskPath: project.diskPath,
        name: mr.sourceBranch,
        defaultBranch: project.defaultBranch,
        projectId: mr.sourceProjectId,
        accessLevel: ruleLevelOf(caller),
      });
      canPush = caller.userId > 0 && branch.canPush;
    } catch {
      throw forbidden("403 Forbidden - Source branch does not exist");
    }
    if (!canPush) throw forbidden("403 Forbidden - Cannot push to source branch");

    await deps.prisma.$transaction(
      async (tx) => {
        // One rebase per merge request at a time, across replicas (GitLab's rebase lock).
        const [{ locked }] = await tx.$queryRaw<[{ locked: boolean }]>`SELECT pg_try_advisory_xact_lock(${REBASE_LOCK_SPACE}::int, ${mr.id}::int) AS locked`;
        if (!locked) throw conflict(REBASE_LOCK_MESSAGE);
        try {
          await deps.repo.RebaseBranch({
            diskPath: project.diskPath,
            context: pushContextFor(project, caller, req.pusher),
            sourceBranch: mr.sourceBranch,
            expectedSourceSha: mr.headSha ?? "",
            targetBranch: mr.targetBranch,
          });
          await tx.mergeRequest.update({ where: { id: mr.id }, data: { mergeError: null } });
        } catch (err) {
          deps.log.info({ err, mergeRequestId: mr.id }, "merge request rebase failed");
          await tx.mergeRequest.update({ where: { id: mr.id }, data: { mergeError: REBASE_ERROR } });
        }
      },
      { timeout: 120_000 },
    );
    return { rebaseInProgress: false };
  };
