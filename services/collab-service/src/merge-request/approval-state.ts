// A merge request's approval state (GitLab's ApprovalState without approval rules): who may
// approve, how many approvals it needs and whether it has them. Pure functions over rows and the
// project's MergeSettings, shared by the approve/unapprove/read handlers and the push reset.
import { AccessLevel } from "@quarry/gitlab";
import type { MergeSettings__Output } from "@quarry/proto/types/identity/v1/MergeSettings";

/** The project settings approvals follow (GitLab's defaults when identity sent none). */
export interface ApprovalSettings {
  /** approvals_before_merge: approvals needed; 0 = none required. */
  required: number;
  /** reset_approvals_on_push. */
  resetOnPush: boolean;
  /** merge_requests_author_approval: authors may approve their own merge requests. */
  authorMayApprove: boolean;
  /** merge_requests_disable_committers_approval: committers may not approve. */
  committersMayNotApprove: boolean;
}

export function approvalSettingsOf(ms: MergeSettings__Output | null | undefined): ApprovalSettings {
  return {
    required: Math.max(0, ms?.approvalsBeforeMerge ?? 0),
    resetOnPush: ms?.resetApprovalsOnPush ?? true,
    authorMayApprove: ms?.mergeRequestsAuthorApproval ?? false,
    committersMayNotApprove: ms?.mergeRequestsDisableCommittersApproval ?? false,
  };
}

/**
 * Approved: the required number of approvals, or (none required, GitLab CE's rule) at least one.
 */
export function isApproved(approvalCount: number, required: number): boolean {
  return required > 0 ? approvalCount >= required : approvalCount > 0;
}

export function approvalsLeft(approvalCount: number, required: number): number {
  return Math.max(required - approvalCount, 0);
}

/** The merge request facts who-may-approve depends on. */
export interface ApprovableMergeRequest {
  authorId: number;
  assigneeIds: readonly number[];
  state: string;
}

/**
 * MergeRequestPolicy#can_approve?: may update the merge request (Developer or above, or a Guest or
 * above who wrote it or is assigned to it) and is a member of the project. Administrators who are
 * not members may not approve, as in GitLab.
 */
export function mayApprove(accessLevel: number, userId: number, mr: ApprovableMergeRequest): boolean {
  if (userId <= 0 || accessLevel < AccessLevel.GUEST) return false;
  if (accessLevel >= AccessLevel.DEVELOPER) return true;
  return mr.authorId === userId || mr.assigneeIds.includes(userId);
}

/**
 * ApprovalState#eligible_for_approval_by?: may approve, has not yet, the merge request is not
 * merged, and the project's self-approval rules allow the author or a committer to.
 */
export function eligibleToApprove(input: {
  accessLevel: number;
  userId: number;
  mr: ApprovableMergeRequest;
  settings: ApprovalSettings;
  hasApproved: boolean;
  /** The caller committed to the merge request (only asked when committers may not approve). */
  isCommitter: () => Promise<boolean>;
}): Promise<boolean> | boolean {
  const { accessLevel, userId, mr, settings } = input;
  if (!mayApprove(accessLevel, userId, mr) || input.hasApproved || mr.state === "merged") return false;
  if (mr.authorId === userId && !settings.authorMayApprove) return false;
  if (settings.committersMayNotApprove) return input.isCommitter().then((committer) => !committer);
  return true;
}

/**
 * The hook action GitLab (EE) sends: an approval that leaves the merge request approved is
 * `approved`, otherwise `approval`; removing an approval from an approved merge request is
 * `unapproved`, otherwise `unapproval` (CE, where one approval approves, always sends the former).
 */
export function approvalHookAction(kind: "approve" | "unapprove", approvedBefore: boolean, approvedAfter: boolean) {
  if (kind === "approve") return approvedAfter ? "approved" : "approval";
  return approvedBefore ? "unapproved" : "unapproval";
}

export const APPROVED_NOTE = "approved this merge request";
export const UNAPPROVED_NOTE = "unapproved this merge request";
