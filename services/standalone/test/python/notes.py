"""Issue notes: create (internal, back-dated), list with sort/order_by, get, save, delete; errors."""
import gitlab

from common import arg, client, emit

gl = client()
project = gl.projects.get(int(arg("project_id")))
# The issue row exists already (the test inserts it); lazy avoids the issues API.
issue = project.issues.get(1, lazy=True)
out = {}

note = issue.notes.create({"body": "from python"})
out["created"] = {"body": note.body, "system": note.system, "noteable_type": note.noteable_type, "noteable_iid": note.noteable_iid, "internal": note.internal}
old = issue.notes.create({"body": "back-dated", "created_at": "2020-01-01T00:00:00Z"})
out["backdated"] = old.created_at
secret = issue.notes.create({"body": "internal", "internal": True})
out["internal"] = secret.internal
out["listed"] = [n.body for n in issue.notes.list(sort="asc", order_by="created_at")]
out["default_order"] = [n.body for n in issue.notes.list()]

got = issue.notes.get(note.id)
got.body = "edited in python"
got.save()
out["saved"] = issue.notes.get(note.id).body

try:
    issue.notes.create({"body": " "})
except gitlab.exceptions.GitlabCreateError as e:
    out["blank"] = [e.response_code, e.error_message]

got.delete()
try:
    issue.notes.get(note.id)
    out["deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["deleted"] = [e.response_code, e.error_message]

try:
    project.issues.get(99, lazy=True).notes.list()
except gitlab.exceptions.GitlabListError as e:
    out["unknown_issue"] = [e.response_code, e.error_message]

emit(out)
