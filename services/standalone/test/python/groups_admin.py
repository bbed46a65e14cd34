"""Groups administration through python-gitlab: gl.groups.list filters (statistics, keyset
iteration), gl.groups.get(with_projects=False), group.descendant_groups, group.transfer(),
project.transfer() / transfer_project()."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}

top = gl.groups.create({"name": f"py top {suffix}", "path": f"py-top-{suffix}", "visibility": "public"})
other = gl.groups.create({"name": f"py other {suffix}", "path": f"py-other-{suffix}", "visibility": "public"})
mid = gl.groups.create({"name": f"py mid {suffix}", "path": "mid", "parent_id": top.id, "visibility": "public"})
gl.groups.create({"name": f"py leaf {suffix}", "path": "leaf", "parent_id": mid.id, "visibility": "public"})

out["list"] = [g.path for g in gl.groups.list(search=suffix, order_by="path", sort="asc", get_all=True)]
out["top_level"] = [g.path for g in gl.groups.list(search=suffix, top_level_only=True, skip_groups=[other.id], get_all=True)]
out["statistics"] = sorted(gl.groups.list(search=f"py-top-{suffix}", statistics=True)[0].statistics.keys())
out["keyset"] = [g.path for g in gl.groups.list(search=suffix, pagination="keyset", order_by="name", per_page=2, iterator=True)]
out["without_projects"] = "projects" in gl.groups.get(top.id, with_projects=False).asdict()
out["with_projects"] = "projects" in gl.groups.get(top.id).asdict()
out["descendants"] = sorted(g.path for g in gl.groups.get(top.id).descendant_groups.list(get_all=True))

mid.transfer(other.id)
out["transferred"] = gl.groups.get(mid.id).full_path
try:
    mid.transfer(other.id)
    out["transfer_again"] = "no error"
except gitlab.exceptions.GitlabGroupTransferError as e:
    out["transfer_again"] = [e.response_code, e.error_message]
mid.transfer()
out["to_top"] = gl.groups.get(mid.id).full_path

project = gl.projects.create({"name": f"pymove{suffix}"})
project.transfer(top.id)
out["project_moved"] = gl.projects.get(project.id).path_with_namespace
project.transfer_project(f"py-other-{suffix}")
out["project_moved_by_path"] = gl.projects.get(project.id).path_with_namespace
try:
    project.transfer(other.id)
    out["project_again"] = "no error"
except gitlab.exceptions.GitlabTransferProjectError as e:
    out["project_again"] = [e.response_code, e.error_message]

emit(out)
