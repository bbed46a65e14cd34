"""Project and group webhooks: create, list, get, update, delete."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
receiver = arg("hook_url")
out = {}
project = gl.projects.create({"name": f"py-hooks-{suffix}", "initialize_with_readme": True})

hook = project.hooks.create({"url": receiver, "push_events": True, "tag_push_events": True, "token": "s3cret", "enable_ssl_verification": False})
out["hook"] = {"url": hook.url, "push_events": hook.push_events, "tag_push_events": hook.tag_push_events, "merge_requests_events": hook.merge_requests_events, "project_id": hook.project_id, "has_token": "token" in hook.attributes}
out["hooks"] = [h.url for h in project.hooks.list()]
got = project.hooks.get(hook.id)
got.push_events = False
got.save()
out["updated_push_events"] = project.hooks.get(hook.id).push_events
project.hooks.delete(hook.id)
out["hooks_after_delete"] = [h.id for h in project.hooks.list()]
try:
    project.hooks.get(hook.id)
    out["hook_deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["hook_deleted"] = e.response_code

group = gl.groups.create({"name": f"py-hook-group-{suffix}", "path": f"py-hook-group-{suffix}"})
ghook = group.hooks.create({"url": receiver, "push_events": True})
out["group_hooks"] = [h.url for h in group.hooks.list()]
group.hooks.delete(ghook.id)
out["group_hooks_after_delete"] = [h.id for h in group.hooks.list()]

# A hook left in place, then a push through the API: the test sees the delivery arrive.
project.hooks.create({"url": receiver, "push_events": True, "token": "s3cret"})
project.files.create({"file_path": "pushed.txt", "branch": "main", "content": "x\n", "commit_message": "Trigger the hook"})
out["delivery_project"] = project.path_with_namespace
emit(out)
