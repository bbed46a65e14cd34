import { forbidden, notFound, unauthenticated } from "@quarry/grpc";
import type { MergeRequestApprovals } from "@quarry/proto/types/collab/v1/MergeRequestApprovals";
import type { MergeRequestRef__Output } from "@quarry/proto/types/collab/v1/MergeRequestRef";
import type { CollabDeps } from "../deps.ts";
import { publishSoon } from "../events/outbox.ts";
import { usernamesOf } from "../system-note/usernames.ts";
import { findVisibleMergeRequest } from "./access.ts";
import { approvalHookAction, approvalSettingsOf, isApproved, mayApprove, UNAPPROVED_NOTE } from "./approval-state.ts";
import { approvableOf, mergeRequestApprovalsFor } from "./approvals.ts";
import { enqueueMergeRequestEvent, mergeRequestSnapshot } from "./event.ts";
import { writeMergeRequestSystemNote } from "./system-notes.ts";

/**
 * POST …/unapprove (MergeRequests::RemoveApprovalService): 403 for who may not approve at all,
 * `404 Not Found` when the caller has not approved or the merge request is merged. Removes the
 * approval and writes the reviewer's `unapproved` state, the "unapproved this merge request" note
 * and the `unapproved`/`unapproval` hook event together.
 */
export const unapproveMergeRequest =
  (deps: CollabDeps) =>
  async (req: MergeRequestRef__Output): Promise<MergeRequestApprovals> => {
    const scope = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    const { mr, parent } = scope;
    const userId = parent.userId;
    if (userId <= 0) throw unauthenticated();
    if (!mayApprove(parent.accessLevel, userId, approvableOf(mr))) throw forbidden();
    const settings = approvalSettingsOf(scope.project.mergeSettings);
    const usernames = await usernamesOf(
      deps,
      mr.assignees.map((a) => a.userId),
    );
    const removed = await deps.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM merge_requests WHERE id = ${mr.id} FOR UPDATE`;
      const before = await mergeRequestSnapshot(tx, mr.id);
      if (before.mr.state === "merged") return false;
      const count = await tx.mergeRequestApproval.count({ where: { mergeRequestId: mr.id } });
      const { count: deleted } = await tx.mergeRequestApproval.deleteMany({ where: { mergeRequestId: mr.id, userId } });
      if (!deleted) return false;
      await tx.mergeRequestReviewer.updateMany({ where: { mergeRequestId: mr.id, userId }, data: { state: "unapproved" } });
      await writeMergeRequestSystemNote(tx, before.mr, userId, UNAPPROVED_NOTE);
      const action = approvalHookAction("unapprove", isApproved(count, settings.required), isApproved(count - 1, settings.required));
      await enqueueMergeRequestEvent(tx, { mergeRequestId: mr.id, scope, action, before, actorUserId: userId, usernames });
      return true;
    });
    if (!removed) throw notFound();
    publishSoon(deps);
    return mergeRequestApprovalsFor(deps, scope, mr.id);
  };
