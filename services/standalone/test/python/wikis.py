"""Project wiki pages as python-gitlab makes them: project.wikis create/get/list/delete and page.save()."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
project = gl.projects.create({"name": f"py-wikis-{suffix}", "visibility": "private"})
page = project.wikis.create({"title": "Python Page", "content": "first"})
out["created"] = {"slug": page.slug, "title": page.title, "format": page.format, "content": page.content}
got = project.wikis.get("Python-Page")
out["got"] = got.content
got.content = "second"
got.save()
out["saved"] = project.wikis.get("Python-Page").content
project.wikis.create({"title": "docs/Nested", "content": "n", "format": "org"})
out["listed"] = sorted(p.slug for p in project.wikis.list(get_all=True))
out["with_content"] = sorted(p.content for p in project.wikis.list(get_all=True, with_content=True))
project.wikis.delete("Python-Page")
out["after_delete"] = [p.slug for p in project.wikis.list(get_all=True)]
try:
    project.wikis.get("Python-Page")
    out["missing"] = "found"
except gitlab.exceptions.GitlabGetError as e:
    out["missing"] = [e.response_code, str(e.error_message)]
emit(out)
