"""Webhook delivery records through python-gitlab: hooks made with group.hooks / project.hooks,
a push through project.files, then the records listed (status filters) and one resent for each
hook. Debian's 3.12 has no manager for the records, so the script uses the client's own request
layer (gl.http_get / http_post) on the documented paths."""
import time

import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
receiver = arg("receiver")
out = {}

group = gl.groups.create({"name": f"py hooks {suffix}", "path": f"py-hooks-{suffix}"})
project = gl.projects.create({"name": "hooked", "namespace_id": group.id, "initialize_with_readme": True})
group_hook = group.hooks.create({"url": f"{receiver}/py-group"})
project_hook = project.hooks.create({"url": f"{receiver}/py-project"})
project.files.create({"file_path": "x.txt", "branch": "main", "content": "x", "commit_message": "x"})


def records(path, **query):
    deadline = time.time() + 20
    while True:
        found = gl.http_get(path, query_data=query)
        if found or time.time() > deadline:
            return found
        time.sleep(0.2)


for name, base in (("group", f"/groups/{group.id}/hooks/{group_hook.id}"), ("project", f"/projects/{project.id}/hooks/{project_hook.id}")):
    delivered = records(f"{base}/events", status="successful")
    out[f"{name}_records"] = [[r["trigger"], r["response_status"]] for r in delivered]
    out[f"{name}_by_code"] = len(gl.http_get(f"{base}/events", query_data={"status": 200}))
    out[f"{name}_server_failures"] = gl.http_get(f"{base}/events", query_data={"status": "server_failure"})
    out[f"{name}_resend"] = gl.http_post(f"{base}/events/{delivered[0]['id']}/resend")
    try:
        gl.http_post(f"{base}/events/999999999/resend")
        out[f"{name}_unknown"] = "no error"
    except gitlab.exceptions.GitlabHttpError as e:
        out[f"{name}_unknown"] = e.response_code
emit(out)
