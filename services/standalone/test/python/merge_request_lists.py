"""Merge request lists as python-gitlab reads them: project, group and instance lists with filters, view=simple, iids, 400s."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
group = gl.groups.create({"name": f"py-mrs-{suffix}", "path": f"py-mrs-{suffix}", "visibility": "public"})
project = gl.projects.create({"name": f"py-mrs-{suffix}", "namespace_id": group.id, "visibility": "public", "initialize_with_readme": True})
for branch in ["fix", "docs"]:
    project.commits.create({
        "branch": branch,
        "start_branch": "main",
        "commit_message": f"Work on {branch}",
        "actions": [{"action": "create", "file_path": f"{branch}.txt", "content": branch}],
    })
fix = project.mergerequests.create({"source_branch": "fix", "target_branch": "main", "title": "Fix it", "labels": ["bug"]})
docs = project.mergerequests.create({"source_branch": "docs", "target_branch": "main", "title": "Draft: docs"})

out["listed"] = [m.iid for m in project.mergerequests.list()]
out["by_label"] = [m.iid for m in project.mergerequests.list(labels=["bug"])]
out["drafts"] = [m.title for m in project.mergerequests.list(wip="yes")]
out["iids"] = [m.iid for m in project.mergerequests.list(iids=[fix.iid])]
out["by_title"] = [m.iid for m in project.mergerequests.list(order_by="title", sort="asc")]
simple = project.mergerequests.list(view="simple", iids=[docs.iid])[0]
out["simple_keys"] = sorted(simple.attributes.keys())
out["group"] = sorted(m.title for m in group.mergerequests.list())
out["mine"] = sorted(m.title for m in gl.mergerequests.list() if m.project_id == project.id)
out["all"] = sorted(m.title for m in gl.mergerequests.list(scope="all", get_all=True) if m.project_id == project.id)
try:
    project.mergerequests.list(order_by="popularity")
    out["bad_order"] = None
except gitlab.exceptions.GitlabListError as e:
    out["bad_order"] = [e.response_code, e.error_message]
try:
    project.mergerequests.list(author_id=1, author_username="root")
    out["exclusive"] = None
except gitlab.exceptions.GitlabListError as e:
    out["exclusive"] = [e.response_code, e.error_message]
emit(out)
