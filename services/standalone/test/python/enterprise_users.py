"""Group enterprise users through python-gitlab 3.12, which has no manager for them: its raw
gl.http_list / http_get / http_delete, and http_request("patch") (3.12 has no http_patch); the
administrator adds Quarry's verified domain (gl.http_post), users on it are created with gl.users."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
domain = f"py{suffix}.example"
out = {}

owner = gl.users.create({"username": f"pyentowner{suffix}", "email": f"pyentowner{suffix}@example.com", "name": "Py Owner", "password": "secret-password-1"})
as_owner = client(owner.personal_access_tokens.create({"name": "t", "scopes": ["api"]}).token)
group = as_owner.groups.create({"name": f"pyent{suffix}", "path": f"pyent{suffix}"})
base = f"/groups/{group.id}"

added = gl.http_post(f"{base}/verified_domains", post_data={"domain": domain, "verified": True})
out["domain"] = [added["domain"], added["verified"]]
ann = gl.users.create({"username": f"pyann{suffix}", "email": f"ann@{domain}", "name": "Ann", "password": "secret-password-1"})
bob = gl.users.create({"username": f"pybob{suffix}", "email": f"bob@{domain}", "name": "Bob", "password": "secret-password-1"})
gl.users.create({"username": f"pyother{suffix}", "email": f"other{suffix}@example.com", "name": "Other", "password": "secret-password-1"})

listed = as_owner.http_list(f"{base}/enterprise_users", get_all=True)
out["listed"] = [u["username"] for u in listed]
out["fields"] = sorted(k for k in ("scim_identities", "enterprise_group_id", "email", "is_admin", "identities") if k in listed[0])
out["search"] = [u["username"] for u in as_owner.http_list(f"{base}/enterprise_users", query_data={"search": "ann"}, get_all=True)]
one = as_owner.http_get(f"{base}/enterprise_users/{bob.id}")
out["one"] = [one["username"], one["enterprise_group_id"] == group.id, one["scim_identities"]]
# The administrator's user view (python-gitlab's User object) carries the enterprise group.
out["admin_view"] = gl.users.get(ann.id).enterprise_group_id == group.id

try:
    as_owner.http_request("patch", f"{base}/enterprise_users/{ann.id}/disable_two_factor")
    out["disable_2fa"] = "no error"
except gitlab.exceptions.GitlabHttpError as e:
    out["disable_2fa"] = [e.response_code, e.error_message]

as_owner.http_delete(f"{base}/enterprise_users/{bob.id}")
out["after_delete"] = [u["username"] for u in as_owner.http_list(f"{base}/enterprise_users", get_all=True)]
try:
    as_owner.http_get(f"{base}/enterprise_users/{bob.id}")
    out["deleted_get"] = "no error"
except gitlab.exceptions.GitlabHttpError as e:
    out["deleted_get"] = [e.response_code, e.error_message]

# The sole Owner of a group: 409, then hard_delete.
as_ann = client(gl.users.get(ann.id).personal_access_tokens.create({"name": "t", "scopes": ["api"]}).token)
as_ann.groups.create({"name": f"pyanngroup{suffix}", "path": f"pyanngroup{suffix}"})
try:
    as_owner.http_delete(f"{base}/enterprise_users/{ann.id}")
    out["conflict"] = "no error"
except gitlab.exceptions.GitlabHttpError as e:
    out["conflict"] = [e.response_code, e.error_message]
as_owner.http_delete(f"{base}/enterprise_users/{ann.id}", query_data={"hard_delete": True})
out["after_hard_delete"] = as_owner.http_list(f"{base}/enterprise_users", get_all=True)
out["group_gone"] = [g.path for g in gl.groups.list(search=f"pyanngroup{suffix}")]

emit(out)
