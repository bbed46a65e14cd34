"""Error tracking through python-gitlab 3.12, which has no manager for it: gl.http_* calls, as scripts do."""
import json

import gitlab
import requests

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
project = gl.projects.create({"name": f"py-error-tracking-{suffix}", "visibility": "private"})
base = f"/projects/{project.id}/error_tracking"
try:
    gl.http_get(f"{base}/settings")
    out["before"] = "found"
except gitlab.exceptions.GitlabHttpError as e:
    out["before"] = [e.response_code, e.error_message]
out["put"] = gl.http_put(f"{base}/settings", post_data={"active": True, "integrated": True})
out["patch"] = gl.http_request("patch", f"{base}/settings", post_data={"active": True}).json()
key = gl.http_post(f"{base}/client_keys")
out["key_keys"] = sorted(key.keys())
out["listed"] = [k["id"] == key["id"] for k in gl.http_list(f"{base}/client_keys")]
# A Sentry "store" request, as older SDKs (raven) send it, to the DSN's collector.
dsn = key["tracker_dsn"]
scheme, rest = dsn.split("://", 1)
public_key, host_path = rest.split("@", 1)
host, path = host_path.split("/", 1)
project_id = path.rsplit("/", 1)[1]
collector = f"{scheme}://{host}/{path.rsplit('/', 1)[0]}/api/{project_id}/store/"
event = {"event_id": "e" * 32, "platform": "python", "level": "error", "message": "raised from python"}
stored = requests.post(collector, data=json.dumps(event), headers={"X-Sentry-Auth": f"Sentry sentry_version=7, sentry_key={public_key}", "Content-Type": "application/json"})
out["store_status"] = stored.status_code
errors = gl.http_list(f"{base}/errors")
out["errors"] = [[e["description"], e["event_count"], e["platform"]] for e in errors]
gl.http_delete(f"{base}/client_keys/{key['id']}")
out["after_delete"] = len(gl.http_list(f"{base}/client_keys"))
refused = requests.post(collector, data=json.dumps(event), headers={"X-Sentry-Auth": f"Sentry sentry_key={public_key}"})
out["refused"] = [refused.status_code, refused.json()]
emit(out)
