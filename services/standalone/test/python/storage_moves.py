"""Snippet and project repository storage moves through python-gitlab. Debian's python-gitlab 3.12
has no managers for them (gl.snippet_repository_storage_moves and gl.project_repository_storage_moves
came later), so this drives the same endpoints through python-gitlab's own HTTP layer: gl.http_post,
gl.http_get and gl.http_list (its pagination and error classes)."""
import time

import gitlab

from common import arg, client, emit

gl = client()
out = {}
snippet_id = int(arg("snippet_id"))
project_id = int(arg("project_id"))


def wait(path, state):
    for _ in range(600):
        move = gl.http_get(path)
        if move["state"] == state:
            return move
        time.sleep(0.05)
    raise RuntimeError(f"{path} never reached {state}")


move = gl.http_post(f"/snippets/{snippet_id}/repository_storage_moves", post_data={"destination_storage_name": "fast"})
out["scheduled"] = [move["state"], move["source_storage_name"], move["destination_storage_name"], move["snippet"]["id"]]
done = wait(f"/snippet_repository_storage_moves/{move['id']}", "finished")
out["finished"] = done["state"]
out["snippet_storage"] = gl.snippets.get(snippet_id).repository_storage
out["snippet_moves"] = [m["id"] == move["id"] for m in gl.http_list(f"/snippets/{snippet_id}/repository_storage_moves", get_all=True)]
out["all_has_it"] = any(m["id"] == move["id"] for m in gl.http_list("/snippet_repository_storage_moves", get_all=True))
try:
    gl.http_post(f"/snippets/{snippet_id}/repository_storage_moves", post_data={"destination_storage_name": "nowhere"})
    out["unknown"] = "scheduled"
except gitlab.exceptions.GitlabHttpError as e:
    out["unknown"] = [e.response_code, e.error_message]

pmove = gl.http_post(f"/projects/{project_id}/repository_storage_moves", post_data={"destination_storage_name": "fast"})
out["project_scheduled"] = [pmove["state"], pmove["project"]["id"]]
wait(f"/projects/{project_id}/repository_storage_moves/{pmove['id']}", "finished")
out["project_storage"] = gl.projects.get(project_id).repository_storage
out["bulk"] = gl.http_post("/project_repository_storage_moves", post_data={"source_storage_name": "fast", "destination_storage_name": "default"})
try:
    gl.http_post("/snippet_repository_storage_moves", post_data={"source_storage_name": "nowhere"})
    out["bulk_unknown"] = "accepted"
except gitlab.exceptions.GitlabHttpError as e:
    out["bulk_unknown"] = [e.response_code, e.error_message]
emit(out)
