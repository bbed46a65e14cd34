import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";

/**
 * GitLab's ApprovalSettings (GET/POST /projects/:id/approvals). Approver lists are deprecated and
 * always empty in GitLab; code owners, approval-rule overriding and password re-authentication do
 * not exist here, so their flags are false.
 */
export function approvalSettingsEntity(p: Project) {
  const ms = p.mergeSettings;
  return {
    approvers: [] as never[],
    approver_groups: [] as never[],
    approvals_before_merge: ms?.approvalsBeforeMerge ?? 0,
    reset_approvals_on_push: ms?.resetApprovalsOnPush ?? true,
    selective_code_owner_removals: false,
    disable_overriding_approvers_per_merge_request: false,
    merge_requests_author_approval: ms?.mergeRequestsAuthorApproval ?? false,
    merge_requests_disable_committers_approval: ms?.mergeRequestsDisableCommittersApproval ?? false,
    require_password_to_approve: false,
    require_reauthentication_to_approve: false,
  };
}
