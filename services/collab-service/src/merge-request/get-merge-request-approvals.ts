import type { MergeRequestApprovals } from "@quarry/proto/types/collab/v1/MergeRequestApprovals";
import type { MergeRequestRef__Output } from "@quarry/proto/types/collab/v1/MergeRequestRef";
import type { CollabDeps } from "../deps.ts";
import { findVisibleMergeRequest } from "./access.ts";
import { mergeRequestApprovalsFor } from "./approvals.ts";

/**
 * GET …/approvals and …/approval_state (find_merge_request_with_access): `404 Not found` for an
 * unknown iid, 403 when the caller may not read merge requests; anonymous readers of a public
 * project see the state too.
 */
export const getMergeRequestApprovals =
  (deps: CollabDeps) =>
  async (req: MergeRequestRef__Output): Promise<MergeRequestApprovals> => {
    const scope = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    return mergeRequestApprovalsFor(deps, scope, scope.mr.id);
  };
