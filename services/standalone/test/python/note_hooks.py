"""Note and issue switches of project and group webhooks, then a comment that a hook receives."""
from common import arg, client, emit

gl = client()
project = gl.projects.get(int(arg("project_id")))
group = gl.groups.get(int(arg("group_id")))
receiver = arg("hook_url")
out = {}

switches = ("note_events", "confidential_note_events", "issues_events", "confidential_issues_events")
hook = project.hooks.create({"url": receiver, "push_events": False, "note_events": True, "confidential_issues_events": True})
out["project_hook"] = {k: getattr(hook, k) for k in switches}
got = project.hooks.get(hook.id)
got.confidential_note_events = True
got.save()
out["project_hook_updated"] = {k: getattr(project.hooks.get(hook.id), k) for k in switches}

ghook = group.hooks.create({"url": receiver + "-group", "issues_events": True, "confidential_note_events": True})
out["group_hook"] = {k: getattr(group.hooks.get(ghook.id), k) for k in switches}

# The issue row exists already (the test inserts it); lazy avoids the issues API.
note = project.issues.get(1, lazy=True).notes.create({"body": "hooked from python"})
out["note_id"] = note.id
emit(out)
