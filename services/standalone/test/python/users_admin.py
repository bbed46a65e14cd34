"""Users administration through python-gitlab: gl.users.list filters, user.block()/unblock()/ban()/
unban()/deactivate()/activate(), user.memberships, user.impersonationtokens, user.customattributes."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}

alice = gl.users.create({"username": f"pyalice{suffix}", "email": f"pyalice{suffix}@example.com", "name": f"Py Alice {suffix}", "password": "secret-password-1"})
bob = gl.users.create({"username": f"pybob{suffix}", "email": f"pybob{suffix}@example.com", "name": f"Py Bob {suffix}", "password": "secret-password-1", "external": True})

out["search"] = [u.username for u in gl.users.list(search=f"alice {suffix}")]
out["external"] = [u.username for u in gl.users.list(search=suffix, external=True)]
out["exclude_external"] = [u.username for u in gl.users.list(search=suffix, exclude_external=True)]
out["ordered"] = [u.username for u in gl.users.list(search=suffix, order_by="username", sort="asc")]
out["created_by"] = gl.users.get(alice.id).created_by["username"]

out["block"] = alice.block()
out["state_after_block"] = gl.users.get(alice.id).state
out["blocked_list"] = [u.username for u in gl.users.list(search=suffix, blocked=True)]
out["block_again"] = alice.block()
out["unblock"] = alice.unblock()
try:
    alice.deactivate()
    out["deactivate"] = "no error"
except gitlab.exceptions.GitlabDeactivateError as e:
    out["deactivate"] = [e.response_code, e.error_message]
out["ban"] = alice.ban()
try:
    alice.ban()
    out["ban_again"] = "no error"
except gitlab.exceptions.GitlabBanError as e:
    out["ban_again"] = [e.response_code, e.error_message]
out["unban"] = alice.unban()

imp = alice.impersonationtokens.create({"name": "py-imp", "scopes": ["api", "read_user"]})
out["impersonation"] = [imp.impersonation, imp.active, sorted(imp.scopes)]
as_alice = client(imp.token)
as_alice.auth()
out["acts_as"] = as_alice.user.username == alice.username
out["tokens"] = [t.name for t in alice.impersonationtokens.list(state="active")]
imp.delete()
out["tokens_after_revoke"] = [t.name for t in alice.impersonationtokens.list(state="active")]

alice.customattributes.set("team", "red")
out["attribute"] = alice.customattributes.get("team").value
# Blocking and unblocking left GitLab's blocked_by / unblocked_by notes beside it.
out["attributes"] = [a.key for a in alice.customattributes.list()]
out["filtered"] = [u.username for u in gl.users.list(custom_attributes={"team": "red"})]
alice.customattributes.delete("team")
out["attributes_after_delete"] = [a.key for a in alice.customattributes.list()]

group = gl.groups.create({"name": f"py-mem-{suffix}", "path": f"py-mem-{suffix}"})
group.members.create({"user_id": bob.id, "access_level": 30})
out["memberships"] = [(m.source_name, m.source_type, m.access_level) for m in bob.memberships.list()]
emit(out)
