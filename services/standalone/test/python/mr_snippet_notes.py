"""Merge request and project snippet notes: create, list, get, save, delete; the 404s."""
import gitlab

from common import arg, client, emit

gl = client()
project = gl.projects.get(int(arg("project_id")))
out = {}

mr = project.mergerequests.get(int(arg("mr_iid")), lazy=True)
note = mr.notes.create({"body": "python on the merge request"})
out["mr_created"] = {"body": note.body, "noteable_type": note.noteable_type, "noteable_iid": note.noteable_iid}
out["mr_listed"] = [n.body for n in mr.notes.list(sort="asc", order_by="created_at")]
got = mr.notes.get(note.id)
got.body = "edited on the merge request"
got.save()
out["mr_saved"] = mr.notes.get(note.id).body
got.delete()
try:
    mr.notes.get(note.id)
    out["mr_deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["mr_deleted"] = [e.response_code, e.error_message]

snippet = project.snippets.get(int(arg("snippet_id")), lazy=True)
note = snippet.notes.create({"body": "python on the snippet"})
out["snippet_created"] = {"body": note.body, "noteable_type": note.noteable_type, "noteable_id": note.noteable_id}
out["snippet_listed"] = [n.body for n in snippet.notes.list()]
got = snippet.notes.get(note.id)
got.body = "edited on the snippet"
got.save()
out["snippet_saved"] = snippet.notes.get(note.id).body
got.delete()
try:
    snippet.notes.get(note.id)
    out["snippet_deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["snippet_deleted"] = [e.response_code, e.error_message]
try:
    project.snippets.get(999999, lazy=True).notes.list()
except gitlab.exceptions.GitlabListError as e:
    out["unknown_snippet"] = [e.response_code, e.error_message]

emit(out)
