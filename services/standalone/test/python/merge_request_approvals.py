"""A project's merge settings (project.save()) and approval configuration (project.approvals)."""
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

emit(out)
