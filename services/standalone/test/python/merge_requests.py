"""Merge requests: create from a branch, get, edit with save (draft title, labels), versions, changes,
commits, participants, closing issues, close and reopen, delete; the server's answers to bad input."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
project = gl.projects.create({"name": f"py-mrs-{suffix}", "visibility": "private", "initialize_with_readme": True})
project.protectedbranches.delete("main")
project.commits.create(
    {
        "branch": "feature",
        "start_branch": "main",
        "commit_message": "Add feature\n\nFixes #1",
        "actions": [{"action": "create", "file_path": "feature.txt", "content": "one\n"}],
    }
)
issue = project.issues.create({"title": "Broken"})

mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Feature", "labels": ["backend"]})
out["created"] = {
    "iid": mr.iid,
    "state": mr.state,
    "labels": mr.labels,
    "draft": mr.draft,
    "merge_status": mr.merge_status,
    "changes_count": mr.changes_count,
    "has_diff_refs": mr.diff_refs["head_sha"] == mr.sha,
}

got = project.mergerequests.get(mr.iid)
got.title = "Draft: Feature"
got.labels = ["backend", "ui"]
got.save()
edited = project.mergerequests.get(mr.iid)
out["edited"] = [edited.title, edited.draft, edited.detailed_merge_status, edited.labels]

out["versions"] = [[v.real_size, v.state] for v in edited.diffs.list()]
version = edited.diffs.get(edited.diffs.list()[0].id)
out["version_files"] = [d["new_path"] for d in version.diffs]
out["changes"] = [c["new_path"] for c in edited.changes()["changes"]]
out["commits"] = [c.title for c in edited.commits()]
out["participants"] = [u["username"] for u in edited.participants()]
out["closes"] = [i.iid for i in edited.closes_issues()]

edited.state_event = "close"
edited.save()
out["closed"] = project.mergerequests.get(mr.iid).state
edited.state_event = "reopen"
edited.save()
out["reopened"] = project.mergerequests.get(mr.iid).state

try:
    gl.http_post(f"/projects/{project.id}/merge_requests", post_data={"title": "x", "source_branch": "feature", "target_branch": "main"})
    out["duplicate"] = None
except gitlab.exceptions.GitlabHttpError as e:
    out["duplicate"] = [e.response_code, e.error_message]
try:
    project.mergerequests.get(42)
    out["unknown"] = None
except gitlab.exceptions.GitlabGetError as e:
    out["unknown"] = [e.response_code, e.error_message]

project.mergerequests.delete(mr.iid)
try:
    project.mergerequests.get(mr.iid)
    out["after_delete"] = None
except gitlab.exceptions.GitlabGetError as e:
    out["after_delete"] = e.response_code
emit(out)
