"""Deploy tokens as python-gitlab manages them: project.deploytokens and group.deploytokens
(create, list, get, delete), gl.deploytokens (administrators' list)."""
import gitlab

from common import arg, client, emit

admin = client()
gl = client(arg("user_token"))
gl.auth()
out = {}
suffix = arg("suffix")

project = gl.projects.create({"name": f"py-dt-{suffix}"})
token = project.deploytokens.create({"name": "py-ci", "scopes": ["read_repository", "read_registry"], "username": "py-bot"})
out["created"] = [token.name, token.username, token.scopes, token.token.startswith("gldt-"), token.revoked, token.expired]
out["listed"] = [t.name for t in project.deploytokens.list()]
got = project.deploytokens.get(token.id)
out["got"] = [got.name, hasattr(got, "token")]
try:
    project.deploytokens.create({"name": "bad", "scopes": ["api"]})
    out["bad_scope"] = "created"
except gitlab.exceptions.GitlabCreateError as e:
    out["bad_scope"] = [e.response_code, e.error_message]
out["instance"] = token.id in [t.id for t in admin.deploytokens.list(get_all=True)]
try:
    gl.deploytokens.list()
    out["instance_as_user"] = "listed"
except gitlab.exceptions.GitlabListError as e:
    out["instance_as_user"] = e.response_code
project.deploytokens.delete(token.id)
out["after_delete"] = [t.name for t in project.deploytokens.list()]

group = gl.groups.create({"name": f"py-dt-g-{suffix}", "path": f"py-dt-g-{suffix}"})
gt = group.deploytokens.create({"name": "py-group", "scopes": ["read_repository"], "expires_at": "2099-01-31"})
out["group_created"] = [gt.name, gt.username == f"gitlab+deploy-token-{gt.id}", gt.expires_at]
out["group_listed"] = [t.name for t in group.deploytokens.list()]
out["group_got"] = group.deploytokens.get(gt.id).name
gt.delete()
out["group_after_delete"] = [t.name for t in group.deploytokens.list()]

emit(out)
