"""Contribution events through python-gitlab: gl.events.list() (the caller's), user.events.list(),
project.events.list() with filters, and gl.user_activities.list() (private profiles for administrators)."""
import datetime
import time

import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}


def make_user(name):
    u = gl.users.create({"username": f"{name}{suffix}", "email": f"{name}{suffix}@example.com", "name": f"Py {name}", "password": "secret-password-1"})
    return u, client(u.personal_access_tokens.create({"name": "t", "scopes": ["api"]}).token)


dev, as_dev = make_user("pyev")
outsider, as_out = make_user("pyevout")

project = as_dev.projects.create({"name": "events", "visibility": "private"})


def recorded(count):
    deadline = datetime.datetime.now() + datetime.timedelta(seconds=20)
    while len(project.events.list(get_all=True)) < count and datetime.datetime.now() < deadline:
        time.sleep(0.05)


recorded(1)
project.commits.create({"branch": "main", "commit_message": "First commit", "actions": [{"action": "create", "file_path": "a.txt", "content": "a"}]})
recorded(2)
issue = project.issues.create({"title": "Py issue"})
recorded(3)
issue.notes.create({"body": "A comment"})
recorded(4)
issue.state_event = "close"
issue.save()
recorded(5)

out["mine"] = [(e.action_name, e.target_type, e.target_title) for e in as_dev.events.list(get_all=True)]
push = as_dev.events.list(action="pushed")[0]
out["push_data"] = {k: push.push_data[k] for k in ("commit_count", "action", "ref_type", "ref", "commit_title")}
note = as_dev.events.list(target_type="note")[0]
out["note"] = [note.note["body"], note.note["noteable_type"], note.note["author"]["username"] == dev.username]
out["user_closed"] = [(e.action_name, e.target_iid) for e in gl.users.get(dev.id).events.list(action="closed")]
out["user_outsider"] = [e.id for e in as_out.users.get(dev.id).events.list()]
out["project_issues"] = [e.action_name for e in as_dev.projects.get(project.id).events.list(target_type="issue", sort="asc")]
try:
    as_out.projects.get(project.id, lazy=True).events.list()
    out["project_outsider"] = "no error"
except gitlab.exceptions.GitlabListError as e:
    out["project_outsider"] = e.response_code
out["activities"] = any(a.username == dev.username for a in gl.user_activities.list(get_all=True))
hidden = gl.users.get(outsider.id)
hidden.private_profile = True
hidden.save()
as_out.user_activities.list()  # the outsider is active today, with a private profile
names = [a.username for a in as_dev.user_activities.list(get_all=True)]
out["activities_dev"] = [dev.username in names, outsider.username in names]
out["activities_admin_private"] = any(a.username == outsider.username for a in gl.user_activities.list(get_all=True))

emit(out)
