"""Project and group milestones: create, list with filters, get, close with save, delete."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
group = gl.groups.create({"name": f"py-milestones-{suffix}", "path": f"py-milestones-{suffix}", "visibility": "public"})
project = gl.projects.create({"name": f"py-milestones-{suffix}", "namespace_id": group.id, "visibility": "public"})

gm = group.milestones.create({"title": "roadmap", "description": "group plan"})
out["group_milestone"] = {"title": gm.title, "iid": gm.iid, "group_id": gm.group_id == group.id}
m1 = project.milestones.create({"title": "1.0", "start_date": "2030-01-01", "due_date": "2030-03-01"})
m2 = project.milestones.create({"title": "2.0", "description": "next"})
out["created"] = {"title": m1.title, "iid": m1.iid, "due_date": m1.due_date, "state": m1.state, "expired": m1.expired}
out["listed"] = [m.title for m in project.milestones.list()]
out["with_ancestors"] = [m.title for m in project.milestones.list(include_ancestors=True)]
out["searched"] = [m.title for m in project.milestones.list(search="next")]
out["by_iid"] = [m.title for m in project.milestones.list(iids=[m1.iid])]

got = project.milestones.get(m2.id)
got.state_event = "close"
got.save()
out["closed"] = project.milestones.get(m2.id).state
out["active"] = [m.title for m in project.milestones.list(state="active")]
try:
    project.milestones.create({"title": "bad", "start_date": "2030-02-01", "due_date": "2030-01-01"})
    out["bad_dates"] = None
except gitlab.exceptions.GitlabCreateError as e:
    out["bad_dates"] = [e.response_code, e.error_message]
project.milestones.delete(m1.id)
out["after_delete"] = [m.title for m in project.milestones.list()]
group.milestones.delete(gm.id)
out["group_after_delete"] = [m.title for m in group.milestones.list()]
emit(out)
