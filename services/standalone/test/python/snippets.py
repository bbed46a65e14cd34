"""Personal and project snippets: create, files[] actions, list, public, get, save, content, delete."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}

mine = gl.snippets.create({"title": f"py-{suffix}", "file_name": "hello.py", "content": "print('hi')\n", "visibility": "public"})
out["created"] = {"title": mine.title, "file_name": mine.file_name, "visibility": mine.visibility, "project_id": mine.project_id}
# python-gitlab 3.12 requires the deprecated file_name/content on create; files[] actions on save.
multi = gl.snippets.create({"title": f"py-multi-{suffix}", "visibility": "private", "file_name": "a.txt", "content": "a"})
multi.files = [{"action": "create", "file_path": "b.txt", "content": "b"}]
multi.save()
out["files"] = [f["path"] for f in multi.files]
out["listed"] = sorted(s.title for s in gl.snippets.list(get_all=True) if s.title.startswith(f"py-"))
out["public"] = [s.title for s in gl.snippets.public(get_all=True) if s.title.startswith("py-")]
got = gl.snippets.get(mine.id)
out["content"] = got.content().decode()
got.title = f"py-renamed-{suffix}"
got.description = "described"
got.save()
got = gl.snippets.get(mine.id)
out["saved"] = {"title": got.title, "description": got.description}
multi.delete()
try:
    gl.snippets.get(multi.id)
    out["deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["deleted"] = e.response_code

project = gl.projects.create({"name": f"py-snippets-{suffix}", "visibility": "public"})
ps = project.snippets.create({"title": "project one", "file_name": "notes.md", "content": "# notes", "visibility": "internal"})
out["project_created"] = {"title": ps.title, "project_id": ps.project_id == project.id, "web_url": ps.web_url.endswith(f"/-/snippets/{ps.id}")}
out["project_listed"] = [s.title for s in project.snippets.list(get_all=True)]
pg = project.snippets.get(ps.id)
out["project_content"] = pg.content().decode()
pg.content = "# changed"
pg.save()
out["project_changed"] = project.snippets.get(ps.id).content().decode()
pg.delete()
out["project_after_delete"] = [s.title for s in project.snippets.list(get_all=True)]
emit(out)
