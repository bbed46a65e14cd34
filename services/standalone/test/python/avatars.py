"""Avatars as python-gitlab sends them: a file object on create, or set on an object and saved."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
png, big = arg("png"), arg("big")
out = {}


def image(url):
    """GETs an avatar URL with the client's token (python-gitlab takes absolute URLs as they are)."""
    res = gl.http_get(url, raw=True)
    return {"content_type": res.headers["Content-Type"], "size": len(res.content)}


user = gl.users.create({"username": f"pyav{suffix}", "email": f"pyav{suffix}@example.com", "name": "Py Avatar", "password": "secret-password-1"})
with open(png, "rb") as f:
    user.avatar = f
    user.save()
out["user_avatar_url"] = gl.users.get(user.id).avatar_url
out["user_image"] = image(out["user_avatar_url"])

with open(png, "rb") as f:
    project = gl.projects.create({"name": f"py-avatar-{suffix}", "description": "pictured", "avatar": f})
out["project"] = {"id": project.id, "avatar_url": project.avatar_url, "description": project.description}
out["project_image"] = image(project.avatar_url)

with open(png, "rb") as f:
    group = gl.groups.create({"name": f"Py Avatar {suffix}", "path": f"py-avatar-{suffix}", "avatar": f})
out["group_avatar_url"] = group.avatar_url
with open(png, "rb") as f:
    group.description = "repictured"
    group.avatar = f
    group.save()
again = gl.groups.get(group.id)
out["group_after_save"] = {"avatar_url": again.avatar_url, "description": again.description}

with open(big, "rb") as f:
    project.avatar = f
    try:
        project.save()
        out["too_big"] = None
    except gitlab.exceptions.GitlabUpdateError as e:
        out["too_big"] = {"status": e.response_code, "message": e.error_message}

emit(out)
