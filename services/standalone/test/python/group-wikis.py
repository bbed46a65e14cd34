"""A group wiki as python-gitlab reads it: group.wikis list and get (a slug with a directory)."""
import gitlab

from common import arg, client, emit

gl = client(arg("token"))
group = gl.groups.get(int(arg("group_id")))
out = {"listed": sorted(p.slug for p in group.wikis.list(get_all=True))}
page = group.wikis.get(arg("slug"))
out["got"] = {"slug": page.slug, "title": page.title, "format": page.format, "content": page.content}
try:
    group.wikis.get("no-such-page")
    out["missing"] = "found"
except gitlab.exceptions.GitlabGetError as e:
    out["missing"] = [e.response_code, str(e.error_message)]
emit(out)
