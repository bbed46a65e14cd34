"""Merge request and project snippet notes: create, list, get, save, delete; the 404s."""
import gitlab

from common import arg, client, emit

gl = client()
project = gl.projects.get(int(arg("project_id")))
out = {}


def exercise(parent, prefix, where, id_attr):
    """Create, list, get, save and delete one comment on parent; record what each step saw."""
    note = parent.notes.create({"body": "python on the " + where})
    out[prefix + "_created"] = {"body": note.body, "noteable_type": note.noteable_type, id_attr: getattr(note, id_attr)}
    out[prefix + "_listed"] = [n.body for n in parent.notes.list(sort="asc", order_by="created_at")]
    got = parent.notes.get(note.id)
    got.body = "edited on the " + where
    got.save()
    out[prefix + "_saved"] = parent.notes.get(note.id).body
    got.delete()
    try:
        parent.notes.get(note.id)
        out[prefix + "_deleted"] = False
    except gitlab.exceptions.GitlabGetError as e:
        out[prefix + "_deleted"] = [e.response_code, e.error_message]


exercise(project.mergerequests.get(int(arg("mr_iid")), lazy=True), "mr", "merge request", "noteable_iid")
exercise(project.snippets.get(int(arg("snippet_id")), lazy=True), "snippet", "snippet", "noteable_id")
try:
    project.snippets.get(999999, lazy=True).notes.list()
except gitlab.exceptions.GitlabListError as e:
    out["unknown_snippet"] = [e.response_code, e.error_message]

emit(out)
