import type { MergeRequestApprovals__Output as MergeRequestApprovals } from "@quarry/proto/types/collab/v1/MergeRequestApprovals";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { Urls } from "./urls.ts";
import { userBasic } from "./user.ts";

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

/**
 * GitLab's approval state of a merge request (EE's ApprovalState entity, which GET …/approvals and
 * POST …/approve|unapprove present): the IssuableEntity fields, the counts and who approved.
 * Approval rules do not exist here (GitLab CE), so every rule list is empty and the approver
 * lists are the deprecated empty ones.
 */
export function mergeRequestApprovalsEntity(a: MergeRequestApprovals, users: ReadonlyMap<number, User>, urls: Urls) {
  const mr = a.mergeRequest!;
  return {
    id: Number(mr.id),
    iid: Number(mr.iid),
    project_id: Number(mr.projectId),
    title: mr.title,
    description: mr.description ?? null,
    state: mr.state,
    created_at: mr.createdAt,
    updated_at: mr.updatedAt,
    merge_status: mr.mergeStatus,
    approved: a.approved,
    approvals_required: a.approvalsRequired,
    approvals_left: a.approvalsLeft,
    require_password_to_approve: false,
    approved_by: a.approvedBy.flatMap((x) => {
      const u = users.get(Number(x.userId));
      return u ? [{ user: userBasic(u, urls), approved_at: x.approvedAt }] : [];
    }),
    suggested_approvers: [] as never[],
    approvers: [] as never[],
    approver_groups: [] as never[],
    user_has_approved: a.userHasApproved,
    user_can_approve: a.userCanApprove,
    approval_rules_left: [] as never[],
    has_approval_rules: false,
    merge_request_approvers_available: false,
    multiple_approval_rules_available: false,
    invalid_approvers_rules: [] as never[],
  };
}

/** GitLab's MergeRequestApprovalState: no approval rules exist here, so none is overwritten. */
export function approvalStateEntity() {
  return { approval_rules_overwritten: false, rules: [] as never[] };
}
