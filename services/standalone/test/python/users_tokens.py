"""Users and personal access tokens, as an administrator manages them."""
import gitlab

from common import arg, client, emit

gl = client()
gl.auth()
out = {"me": {"username": gl.user.username, "is_admin": gl.user.is_admin}}
suffix = arg("suffix")

user = gl.users.create({"username": f"py{suffix}", "email": f"py{suffix}@example.com", "name": "Py User", "password": "py-password-12345"})
out["created"] = {"id": user.id, "username": user.username, "name": user.name}
out["found"] = [u.id for u in gl.users.list(username=f"py{suffix}")]
user.bio = "from python"
user.save()
out["bio"] = gl.users.get(user.id).bio

token = user.personal_access_tokens.create({"name": "py-token", "scopes": ["api", "read_api"]})
out["token"] = {"name": token.name, "scopes": token.scopes, "active": token.active, "user_id": token.user_id}
as_user = client(token.token)
as_user.auth()
out["as_user"] = as_user.user.username
out["user_tokens"] = [t.name for t in gl.personal_access_tokens.list(user_id=user.id)]

# Sudo: the administrator's token acting as the user (python-gitlab passes sudo= as a request parameter).
out["sudo_project"] = gl.projects.create({"name": f"py-sudo-{suffix}"}, sudo=user.username).namespace["path"]
out["sudo_current_user"] = gl.http_get("/user", sudo=user.id)["username"]

# Identities from an external provider.
ida = gl.users.create({"username": f"ida{suffix}", "email": f"ida{suffix}@example.com", "name": "Ida", "password": "py-password-12345", "provider": "ldapmain", "extern_uid": f"uid=ida{suffix}"})
out["identities"] = gl.users.get(ida.id).identities
out["by_extern_uid"] = [u.username for u in gl.users.list(extern_uid=f"uid=ida{suffix}", provider="ldapmain")]

gl.personal_access_tokens.delete(token.id)
try:
    client(token.token).auth()
    out["revoked_rejected"] = False
except gitlab.exceptions.GitlabAuthenticationError as e:
    out["revoked_rejected"] = e.response_code

user.delete()
try:
    gl.users.get(user.id)
    out["deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["deleted"] = e.response_code
emit(out)
