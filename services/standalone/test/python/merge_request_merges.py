"""Merging merge requests with python-gitlab: mr.merge() (with branch removal and GitLab's
refusals), mr.rebase() with include_rebase_in_progress, mr.cancel_merge_when_pipeline_succeeds()."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
project = gl.projects.create({"name": f"py-merges-{suffix}", "initialize_with_readme": True})


def branch_with_file(branch, path, content):
    project.branches.create({"branch": branch, "ref": "main"})
    project.files.create({"file_path": path, "branch": branch, "content": content, "commit_message": f"Add {path}"})


branch_with_file("feature", "feature.txt", "feature\n")
mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Merge me"})
try:
    mr.merge(sha="0" * 40)
    out["stale_sha"] = None
except gitlab.exceptions.GitlabMRClosedError as e:
    out["stale_sha"] = {"status": e.response_code, "message": e.error_message}
mr.merge(should_remove_source_branch=True)
out["merged"] = {"state": mr.state, "has_merge_commit": len(mr.merge_commit_sha or "") == 40, "merged_by": mr.merged_by["username"]}
main = project.commits.get("main")
out["main_parents"] = len(main.parent_ids)
try:
    project.branches.get("feature")
    out["feature_after"] = "exists"
except gitlab.exceptions.GitlabGetError as e:
    out["feature_after"] = e.response_code

branch_with_file("topic", "topic.txt", "topic\n")
project.files.create({"file_path": "moved.txt", "branch": "main", "content": "moved\n", "commit_message": "Move main"})
topic = project.mergerequests.create({"source_branch": "topic", "target_branch": "main", "title": "Rebase me"})
out["rebase"] = topic.rebase()
out["rebase_in_progress"] = project.mergerequests.get(topic.iid, include_rebase_in_progress=True).rebase_in_progress
out["rebased_onto_main"] = project.commits.get("topic").parent_ids == [project.commits.get("main").id]
out["cancel_without_auto_merge"] = topic.cancel_merge_when_pipeline_succeeds()

project.branches.create({"branch": "clash", "ref": "main"})
for branch, content in (("clash", "mine\n"), ("main", "theirs\n")):
    f = project.files.get(file_path="moved.txt", ref=branch)
    f.content = content
    f.save(branch=branch, commit_message=f"Change moved.txt on {branch}")
clash = project.mergerequests.create({"source_branch": "clash", "target_branch": "main", "title": "Conflicts"})
out["clash_status"] = project.mergerequests.get(clash.iid).detailed_merge_status
try:
    clash.merge()
    out["clash_merge"] = None
except gitlab.exceptions.GitlabMRClosedError as e:
    out["clash_merge"] = {"status": e.response_code, "message": e.error_message}

emit(out)
