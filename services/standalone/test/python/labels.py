"""Project and group labels: create, list (with the group's labels), get by name, save, subscribe, delete."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
group = gl.groups.create({"name": f"py-labels-{suffix}", "path": f"py-labels-{suffix}", "visibility": "public"})
project = gl.projects.create({"name": f"py-labels-{suffix}", "namespace_id": group.id, "visibility": "public"})

glabel = group.labels.create({"name": "group wide", "color": "#00ff00"})
out["group_label"] = {"name": glabel.name, "color": glabel.color, "text_color": glabel.text_color}
label = project.labels.create({"name": "needs review", "color": "blue", "description": "waiting", "priority": 2})
out["created"] = {"name": label.name, "color": label.color, "priority": label.priority, "is_project_label": label.is_project_label}
out["listed"] = [l.name for l in project.labels.list()]
out["own"] = [l.name for l in project.labels.list(include_ancestor_groups=False)]
out["searched"] = [l.name for l in project.labels.list(search="wide")]

got = project.labels.get("needs review")
got.new_name = "reviewed"
got.color = "#FF0000"
got.save()
out["saved"] = {"name": got.name, "color": got.color}
got = project.labels.get("reviewed")
got.subscribe()
out["subscribed"] = got.subscribed
got.unsubscribe()
out["unsubscribed"] = got.subscribed
got.delete()
try:
    project.labels.get("reviewed")
    out["deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["deleted"] = e.response_code

lifted = project.labels.create({"name": "lift me", "color": "#abcdef"})
promoted = lifted.promote()
out["promoted"] = {"name": promoted["name"], "in_group": [l.name for l in group.labels.list() if l.name == "lift me"]}

g = group.labels.get("group wide")
g.description = "for everyone"
g.save()
out["group_saved"] = group.labels.get("group wide").description
group.labels.delete("group wide")
group.labels.delete("lift me")
out["group_after_delete"] = [l.name for l in group.labels.list()]
emit(out)
