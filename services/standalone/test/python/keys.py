"""SSH keys and deploy keys as python-gitlab manages them: gl.user.keys, user.keys (administrator),
project.keys (create, get, save, enable, delete), gl.deploykeys and gl.keys (by id and fingerprint)."""
import gitlab

from common import arg, client, emit

admin = client()
gl = client(arg("user_token"))
gl.auth()
out = {}

mine = gl.user.keys.create({"title": "py-laptop", "key": arg("key1")})
out["created"] = {"title": mine.title, "usage_type": mine.usage_type, "has_key": mine.key.startswith("ssh-ed25519 ")}
out["listed"] = [k.title for k in gl.user.keys.list()]
out["got"] = gl.user.keys.get(mine.id).title
try:
    gl.user.keys.create({"title": "again", "key": arg("key1")})
    out["duplicate"] = "created"
except gitlab.exceptions.GitlabCreateError as e:
    out["duplicate"] = [e.response_code, e.error_message]

user = admin.users.get(gl.user.id)
by_admin = user.keys.create({"title": "py-admin", "key": arg("key2")})
out["user_keys"] = [k.title for k in user.keys.list()]
found = admin.keys.get(fingerprint=arg("key2_sha256"))
out["by_fingerprint"] = [found.id == by_admin.id, found.user["id"] == gl.user.id]
out["by_id"] = admin.keys.get(mine.id).title
user.keys.delete(by_admin.id)
gl.user.keys.delete(mine.id)
out["after_delete"] = [k.title for k in gl.user.keys.list()]

suffix = arg("suffix")
a = gl.projects.create({"name": f"py-dk-a-{suffix}"})
b = gl.projects.create({"name": f"py-dk-b-{suffix}"})
dk = a.keys.create({"title": "py-deploy", "key": arg("key3"), "can_push": True})
out["deploy_created"] = [dk.title, dk.can_push]
got = a.keys.get(dk.id)
got.can_push = False
got.save()
out["deploy_after_save"] = a.keys.get(dk.id).can_push
b.keys.enable(dk.id)
out["enabled_in_b"] = [k.id == dk.id for k in b.keys.list()]
out["instance"] = any(k.id == dk.id for k in admin.deploykeys.list(get_all=True))
a.keys.delete(dk.id)
out["a_after_delete"] = len(a.keys.list())
emit(out)
