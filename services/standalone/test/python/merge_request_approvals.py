"""A project's merge settings (project.save()), its approval configuration (project.approvals) and
merge request approvals (mr.approve(), mr.approvals, mr.approval_state, mr.unapprove())."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
project = gl.projects.create({"name": f"py-approvals-{suffix}", "initialize_with_readme": True})

project.merge_method = "ff"
project.squash_option = "never"
project.only_allow_merge_if_pipeline_succeeds = True
project.save()
again = gl.projects.get(project.id)
out["settings"] = {
    "merge_method": again.merge_method,
    "squash_option": again.squash_option,
    "only_allow_merge_if_pipeline_succeeds": again.only_allow_merge_if_pipeline_succeeds,
    "remove_source_branch_after_merge": again.remove_source_branch_after_merge,
}
again.merge_method = "rebase"
try:
    again.save()
    out["bad_method"] = None
except gitlab.exceptions.GitlabUpdateError as e:
    out["bad_method"] = {"status": e.response_code, "message": e.error_message}

config = project.approvals.get()
out["config"] = {
    "approvals_before_merge": config.approvals_before_merge,
    "reset_approvals_on_push": config.reset_approvals_on_push,
    "merge_requests_author_approval": config.merge_requests_author_approval,
}
config.approvals_before_merge = 2
config.merge_requests_disable_committers_approval = True
config.save()
project.approvals.update(new_data={"reset_approvals_on_push": False})
config = project.approvals.get()
out["config_saved"] = {
    "approvals_before_merge": config.approvals_before_merge,
    "reset_approvals_on_push": config.reset_approvals_on_push,
    "merge_requests_disable_committers_approval": config.merge_requests_disable_committers_approval,
}

# Back to one approval is enough, then a merge request a Maintainer approves.
project.approvals.update(new_data={"approvals_before_merge": 0, "reset_approvals_on_push": True})
project.branches.create({"branch": "feature", "ref": "main"})
project.files.create({"file_path": "feature.txt", "branch": "feature", "content": "feature\n", "commit_message": "Add feature"})
mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Approve me"})
user = gl.users.create({"username": f"pyappr{suffix}", "email": f"pyappr{suffix}@example.com", "name": "Py Approver", "password": "py-password-12345"})
project.members.create({"user_id": user.id, "access_level": 40})
token = user.personal_access_tokens.create({"name": "approver", "scopes": ["api"]})
as_approver = client(token.token).projects.get(project.id).mergerequests.get(mr.iid)

as_approver.approve(sha=mr.sha)
approvals = as_approver.approvals.get()
out["approvals"] = {
    "approved": approvals.approved,
    "approved_by": [a["user"]["username"] for a in approvals.approved_by],
    "user_has_approved": approvals.user_has_approved,
    "approvals_left": approvals.approvals_left,
}
state = as_approver.approval_state.get()
out["approval_state"] = {"approval_rules_overwritten": state.approval_rules_overwritten, "rules": state.rules}
try:
    gl.projects.get(project.id).mergerequests.get(mr.iid).approve()
    out["author_approve"] = None
except gitlab.exceptions.GitlabAuthenticationError as e:
    out["author_approve"] = e.response_code
as_approver.unapprove()
out["after_unapprove"] = as_approver.approvals.get().approved
try:
    as_approver.unapprove()
    out["unapprove_again"] = None
except gitlab.exceptions.GitlabMRApprovalError as e:
    out["unapprove_again"] = e.response_code

emit(out)
