"""E-mail addresses and service accounts through python-gitlab: gl.user.emails (CurrentUserEmailManager),
user.emails (UserEmailManager, administrators); python-gitlab 3.12 has no service account managers, so
those go through its raw gl.http_get / http_post / http_delete."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}

alice = gl.users.create({"username": f"pymail{suffix}", "email": f"pymail{suffix}@example.com", "name": f"Py Mail {suffix}", "password": "secret-password-1"})
token = alice.personal_access_tokens.create({"name": "t", "scopes": ["api"]})
as_alice = client(token.token)
as_alice.auth()

mine = as_alice.user.emails.create({"email": f"second{suffix}@example.com"})
out["created"] = [mine.email, mine.confirmed_at]
out["mine"] = [e.email for e in as_alice.user.emails.list()]
out["get"] = as_alice.user.emails.get(mine.id).email
try:
    as_alice.user.emails.create({"email": f"second{suffix}@example.com"})
    out["taken"] = "no error"
except gitlab.exceptions.GitlabCreateError as e:
    out["taken"] = [e.response_code, e.error_message]
as_alice.user.emails.delete(mine.id)
out["after_delete"] = [e.email for e in as_alice.user.emails.list()]

admin_added = alice.emails.create({"email": f"byadmin{suffix}@example.com", "skip_confirmation": True})
out["admin_added_confirmed"] = admin_added.confirmed_at is not None
out["admin_list"] = [e.email for e in alice.emails.list()]
admin_added.delete()
out["admin_after_delete"] = [e.email for e in alice.emails.list()]

group = gl.groups.create({"name": f"py-sa-{suffix}", "path": f"py-sa-{suffix}"})
sa = gl.http_post(f"/groups/{group.id}/service_accounts", post_data={"name": "Py bot"})
out["sa"] = [sa["name"], sa["username"].startswith(f"service_account_group_{group.id}_")]
tok = gl.http_post(f"/groups/{group.id}/service_accounts/{sa['id']}/personal_access_tokens", post_data={"name": "py-tok", "scopes": ["read_api"]})
out["token"] = [tok["name"], tok["scopes"], tok["token"].startswith("glpat-")]
out["tokens"] = [t["name"] for t in gl.http_get(f"/groups/{group.id}/service_accounts/{sa['id']}/personal_access_tokens", query_data={"state": "active"})]
gl.http_delete(f"/groups/{group.id}/service_accounts/{sa['id']}/personal_access_tokens/{tok['id']}")
out["tokens_after_revoke"] = [t["name"] for t in gl.http_get(f"/groups/{group.id}/service_accounts/{sa['id']}/personal_access_tokens", query_data={"state": "active"})]
inst = gl.http_post("/service_accounts", post_data={})
out["instance"] = [inst["name"], inst["username"].startswith("service_account_")]
out["instance_listed"] = inst["id"] in [a["id"] for a in gl.http_get("/service_accounts")]
gl.http_delete(f"/groups/{group.id}/service_accounts/{sa['id']}", query_data={"hard_delete": True})
out["group_list_after_delete"] = gl.http_get(f"/groups/{group.id}/service_accounts")

emit(out)
