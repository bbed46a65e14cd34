"""Group SSH certificates through python-gitlab. Debian's 3.12 has no manager for them, so the
script uses the client's own request layer (gl.http_get / http_post / http_delete): its
authentication, JSON decoding and error mapping, against the documented paths."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
ca_key = arg("ca_key")
out = {}

group = gl.groups.create({"name": f"py certs {suffix}", "path": f"py-certs-{suffix}"})
sub = gl.groups.create({"name": "sub", "path": "sub", "parent_id": group.id})
path = f"/groups/{group.id}/ssh_certificates"

created = gl.http_post(path, post_data={"title": "corp CA", "key": ca_key})
out["created"] = {k: created[k] for k in ("title", "key")}
out["listed"] = [c["id"] for c in gl.http_get(path)] == [created["id"]]


def error(call):
    try:
        call()
        return "no error"
    except gitlab.exceptions.GitlabHttpError as e:
        return [e.response_code, e.error_message]


out["duplicate"] = error(lambda: gl.http_post(path, post_data={"title": "again", "key": ca_key}))
out["missing"] = error(lambda: gl.http_post(path, post_data={}))
out["subgroup"] = error(lambda: gl.http_post(f"/groups/{sub.id}/ssh_certificates", post_data={"title": "x", "key": ca_key}))
gl.http_delete(f"{path}/{created['id']}")
out["after_delete"] = gl.http_get(path)
out["delete_again"] = error(lambda: gl.http_delete(f"{path}/{created['id']}"))
emit(out)
