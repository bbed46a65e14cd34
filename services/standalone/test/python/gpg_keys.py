"""GPG keys as python-gitlab manages them: gl.user.gpgkeys (create, list, get, delete), an
administrator's user.gpgkeys, GitLab's 400 for a taken key, and a signed commit's verification
through project.commits.get(sha).signature()."""
import gitlab

from common import arg, client, emit

admin = client()
gl = client(arg("user_token"))
gl.auth()
out = {}

key = arg("public_key")
mine = gl.user.gpgkeys.create({"key": key})
out["created"] = [mine.key == key, isinstance(mine.id, int), bool(mine.created_at)]
out["listed"] = [k.id for k in gl.user.gpgkeys.list()] == [mine.id]
out["got"] = gl.user.gpgkeys.get(mine.id).key == key

project = gl.projects.get(int(arg("project_id")))
signature = project.commits.get(arg("sha")).signature()
out["signature"] = {k: signature[k] for k in ("signature_type", "verification_status", "gpg_key_primary_keyid", "gpg_key_user_email")}
out["signature_key_id"] = signature["gpg_key_id"] == mine.id

try:
    admin.users.get(int(arg("other_id"))).gpgkeys.create({"key": key})
    out["duplicate"] = "created"
except gitlab.exceptions.GitlabCreateError as e:
    out["duplicate"] = [e.response_code, e.error_message]

gl.user.gpgkeys.delete(mine.id)
out["after_delete"] = [k.id for k in gl.user.gpgkeys.list()]
out["signature_after_delete"] = project.commits.get(arg("sha")).signature()["verification_status"]

user = admin.users.get(gl.user.id)
by_admin = user.gpgkeys.create({"key": key})
out["user_keys"] = [k.id for k in user.gpgkeys.list()] == [by_admin.id]
out["user_key"] = user.gpgkeys.get(by_admin.id).id == by_admin.id
user.gpgkeys.delete(by_admin.id)
out["user_after_delete"] = [k.id for k in user.gpgkeys.list()]
emit(out)
