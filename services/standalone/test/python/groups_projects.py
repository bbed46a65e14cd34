"""Groups, subgroups and projects: create, get, list, update, delete."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}

group = gl.groups.create({"name": f"Py Group {suffix}", "path": f"py-group-{suffix}", "visibility": "internal", "description": "from python"})
out["group"] = {"full_path": group.full_path, "visibility": group.visibility, "parent_id": group.parent_id}
sub = gl.groups.create({"name": "Tools", "path": "tools", "parent_id": group.id})
out["sub"] = {"full_path": sub.full_path, "parent_id": sub.parent_id}
out["subgroups"] = [g.id == sub.id for g in group.subgroups.list()]
out["by_path"] = gl.groups.get(f"py-group-{suffix}/tools").id == sub.id
group.description = "edited"
group.save()
out["group_description"] = gl.groups.get(group.id).description

project = gl.projects.create({"name": "Py Project", "namespace_id": sub.id, "initialize_with_readme": True, "description": "made by python-gitlab"})
out["project"] = {"path_with_namespace": project.path_with_namespace, "default_branch": project.default_branch, "empty_repo": project.empty_repo, "visibility": project.visibility}
fetched = gl.projects.get(project.path_with_namespace)
out["fetched_id_matches"] = fetched.id == project.id
out["listed"] = project.id in [p.id for p in gl.projects.list(search="Py Project", iterator=True)]
out["in_group"] = [p.id for p in group.projects.list(include_subgroups=True)] == [project.id]
fetched.description = "updated"
fetched.topics = ["py", "gitlab"]
fetched.save()
again = gl.projects.get(project.id)
out["updated"] = {"description": again.description, "topics": again.topics}

empty = gl.projects.create({"name": f"py-empty-{suffix}"})
out["empty"] = {"empty_repo": empty.empty_repo, "path": empty.path}
empty.delete()
try:
    gl.projects.get(empty.id)
    out["project_deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["project_deleted"] = e.response_code

group.delete()
try:
    gl.projects.get(project.id)
    out["group_deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["group_deleted"] = e.response_code
emit(out)
