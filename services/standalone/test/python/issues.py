"""Issues: create, list with filters, get, edit and close with save, delete; group and instance lists; label events."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
group = gl.groups.create({"name": f"py-issues-{suffix}", "path": f"py-issues-{suffix}", "visibility": "public"})
project = gl.projects.create({"name": f"py-issues-{suffix}", "namespace_id": group.id, "visibility": "public"})

i1 = project.issues.create({"title": "Crash", "labels": ["bug", "p1"], "description": "- [ ] fix"})
i2 = project.issues.create({"title": "Docs", "confidential": True})
out["created"] = {"iid": i1.iid, "labels": i1.labels, "state": i1.state, "tasks": i1.task_completion_status, "type": i1.type}
out["listed"] = [i.iid for i in project.issues.list()]
out["by_label"] = [i.iid for i in project.issues.list(labels=["bug"])]
out["confidential"] = [i.iid for i in project.issues.list(confidential=True)]
out["searched"] = [i.title for i in project.issues.list(search="docs")]

got = project.issues.get(i1.iid)
got.state_event = "close"
got.save()
out["closed"] = project.issues.get(i1.iid).state
out["opened"] = [i.iid for i in project.issues.list(state="opened")]
edit = project.issues.get(i2.iid)
edit.title = "Docs 2"
edit.labels = ["docs"]
edit.save()
out["edited"] = [edit.title, edit.labels]
out["label_events"] = [[e.action, e.label["name"]] for e in got.resourcelabelevents.list()]
out["state_events"] = [e.state for e in got.resourcestateevents.list()]
out["group"] = sorted(i.title for i in group.issues.list())
out["mine"] = sorted(i.title for i in gl.issues.list() if i.project_id == project.id)
try:
    # python-gitlab checks required attributes itself; the raw call shows the server's answer.
    gl.http_post(f"/projects/{project.id}/issues", post_data={})
    out["missing_title"] = None
except gitlab.exceptions.GitlabHttpError as e:
    out["missing_title"] = [e.response_code, e.error_message]
project.issues.delete(i2.iid)
out["after_delete"] = [i.iid for i in project.issues.list()]
emit(out)
