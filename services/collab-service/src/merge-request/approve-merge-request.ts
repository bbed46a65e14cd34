import { failedPrecondition, forbidden, unauthenticated } from "@quarry/grpc";
import type { ApproveMergeRequestRequest__Output } from "@quarry/proto/types/collab/v1/ApproveMergeRequestRequest";
import type { MergeRequestApprovals } from "@quarry/proto/types/collab/v1/MergeRequestApprovals";
import type { CollabDeps } from "../deps.ts";
import { publishSoon } from "../events/outbox.ts";
import { usernamesOf } from "../system-note/usernames.ts";
import { findVisibleMergeRequest } from "./access.ts";
import { APPROVED_NOTE, approvalHookAction, approvalSettingsOf, eligibleToApprove, isApproved, mayApprove } from "./approval-state.ts";
import { approvableOf, isCommitter, mergeRequestApprovalsFor } from "./approvals.ts";
import { enqueueMergeRequestEvent, mergeRequestSnapshot } from "./event.ts";
import { writeMergeRequestSystemNote } from "./system-notes.ts";

/**
 * POST …/approve (lib/api/merge_request_approvals.rb, MergeRequests::ApprovalService): 403 for who
 * may not approve at all, 409 `SHA does not match HEAD of source branch: <head>` for a stale `sha`,
 * 401 for who may not approve now (already approved, the author or a committer where the project
 * forbids it, a merged merge request). Writes the approval, the reviewer's `approved` state, the
 * "approved this merge request" note and the `approved`/`approval` hook event together.
 */
export const approveMergeRequest =
  (deps: CollabDeps) =>
  async (req: ApproveMergeRequestRequest__Output): Promise<MergeRequestApprovals> => {
    const scope = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    const { mr, parent } = scope;
    const userId = parent.userId;
    if (userId <= 0) throw unauthenticated();
    if (!mayApprove(parent.accessLevel, userId, approvableOf(mr))) throw forbidden();
    if (req.sha && req.sha !== (mr.headSha ?? "")) throw failedPrecondition(`SHA does not match HEAD of source branch: ${mr.headSha ?? ""}`);
    const settings = approvalSettingsOf(scope.project.mergeSettings);
    const hasApproved = (await deps.prisma.mergeRequestApproval.count({ where: { mergeRequestId: mr.id, userId } })) > 0;
    const eligible = await eligibleToApprove({
      accessLevel: parent.accessLevel,
      userId,
      mr: approvableOf(mr),
      settings,
      hasApproved,
      isCommitter: () => isCommitter(deps, scope, mr, userId),
    });
    if (!eligible) throw unauthenticated();
    const usernames = await usernamesOf(
      deps,
      mr.assignees.map((a) => a.userId),
    );
    const approved = await deps.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM merge_requests WHERE id = ${mr.id} FOR UPDATE`;
      const before = await mergeRequestSnapshot(tx, mr.id);
      // A merge or a concurrent approval may have landed since the checks above.
      if (before.mr.state === "merged") return false;
      const existing = await tx.mergeRequestApproval.findMany({ where: { mergeRequestId: mr.id }, select: { userId: true } });
      if (existing.some((a) => a.userId === userId)) return false;
      await tx.mergeRequestApproval.create({ data: { mergeRequestId: mr.id, userId, sha: before.mr.headSha } });
      await tx.mergeRequestReviewer.updateMany({ where: { mergeRequestId: mr.id, userId }, data: { state: "approved" } });
      await writeMergeRequestSystemNote(tx, before.mr, userId, APPROVED_NOTE);
      const action = approvalHookAction("approve", isApproved(existing.length, settings.required), isApproved(existing.length + 1, settings.required));
      await enqueueMergeRequestEvent(tx, { mergeRequestId: mr.id, scope, action, before, actorUserId: userId, usernames });
      return true;
    });
    if (!approved) throw unauthenticated();
    publishSoon(deps);
    return mergeRequestApprovalsFor(deps, scope, mr.id);
  };
