"""Award emoji on an issue and on one of its notes: create, list, get, delete.

The issue and the note are made by the test (QUARRY_PROJECT, QUARRY_ISSUE_IID, QUARRY_NOTE_ID) and
reached lazily, so only the award emoji endpoints are asked.
"""
import gitlab

from common import arg, client, emit

gl = client()
out = {}
project = gl.projects.get(int(arg("project")), lazy=True)
issue = project.issues.get(int(arg("issue_iid")), lazy=True)

award = issue.awardemojis.create({"name": "+1"})
out["created"] = {"name": award.name, "awardable_type": award.awardable_type, "user": award.user["username"]}
issue.awardemojis.create({"name": "tada"})
out["listed"] = [a.name for a in issue.awardemojis.list()]
out["got"] = issue.awardemojis.get(award.id).name
try:
    issue.awardemojis.create({"name": "thumbsup"})
    out["duplicate"] = None
except gitlab.exceptions.GitlabCreateError as e:
    out["duplicate"] = {"status": e.response_code, "message": e.error_message}
award.delete()
out["after_delete"] = [a.name for a in issue.awardemojis.list()]

note = issue.notes.get(int(arg("note_id")), lazy=True)
note_award = note.awardemojis.create({"name": "rocket"})
out["note_created"] = {"name": note_award.name, "awardable_type": note_award.awardable_type}
out["note_listed"] = [a.name for a in note.awardemojis.list()]
out["note_got"] = note.awardemojis.get(note_award.id).name
note.awardemojis.delete(note_award.id)
try:
    note.awardemojis.get(note_award.id)
    out["note_deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["note_deleted"] = e.response_code

emit(out)
