"""Starring and notification settings: project.star()/unstar(), starrers, user.starred_projects,
gl.notificationsettings and project/group notificationsettings."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
group = gl.groups.create({"name": f"py-stars-{suffix}", "path": f"py-stars-{suffix}", "visibility": "public"})
project = gl.projects.create({"name": f"py-stars-{suffix}", "namespace_id": group.id, "visibility": "public"})

project.star()
out["starred"] = project.star_count
gl.auth()
# This python-gitlab has no project.starrers manager: the raw list call, as its http_list does.
out["starrers"] = [s["user"]["username"] for s in gl.http_list(f"/projects/{project.id}/starrers")]
user = gl.users.get(gl.user.id)
out["starred_projects"] = [p.id == project.id for p in user.starred_projects.list(search=f"py-stars-{suffix}")]
try:
    project.star()
    out["star_again"] = "no error"
except gitlab.exceptions.GitlabCreateError as e:
    out["star_again"] = e.response_code
project.unstar()
out["unstarred"] = project.star_count

settings = gl.notificationsettings.get()
out["global_default"] = settings.level
settings.level = "watch"
settings.save()
out["global_saved"] = gl.notificationsettings.get().level
settings.level = "loud"
try:
    settings.save()
    out["bad_level"] = "no error"
except gitlab.exceptions.GitlabUpdateError as e:
    out["bad_level"] = {"status": e.response_code, "message": e.error_message}

psettings = project.notificationsettings.get()
out["project_default"] = psettings.level
psettings.level = "custom"
psettings.new_note = True
psettings.save()
again = project.notificationsettings.get()
out["project_saved"] = {"level": again.level, "new_note": again.events["new_note"], "new_issue": again.events["new_issue"]}
gsettings = group.notificationsettings.get()
gsettings.level = "mention"
gsettings.save()
out["group_saved"] = group.notificationsettings.get().level
emit(out)
