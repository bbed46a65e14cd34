"""Project Markdown uploads as python-gitlab makes them: project.upload, then the file over the API and the web path."""
import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
project = gl.projects.create({"name": f"py-uploads-{suffix}", "visibility": "private"})
text = project.upload("name.txt", filedata=b"hello from python")
out["keys"] = sorted(text.keys())
out["markdown_is_link"] = text["markdown"] == f"[name.txt]({text['url']})"
image = project.upload("pic.png", filedata=b"\x89PNG\r\n\x1a\n")
out["image_markdown"] = image["markdown"] == f"![pic]({image['url']})"
secret = text["url"].split("/")[2]
out["by_secret"] = gl.http_get(f"/projects/{project.id}/uploads/{secret}/name.txt", raw=True).content.decode()
listed = gl.http_list(f"/projects/{project.id}/uploads")
out["listed"] = [u["filename"] for u in listed]
out["by_id"] = gl.http_get(f"/projects/{project.id}/uploads/{listed[1]['id']}", raw=True).content.decode()
gl.http_delete(f"/projects/{project.id}/uploads/{listed[0]['id']}")
out["after_delete"] = [u["filename"] for u in gl.http_list(f"/projects/{project.id}/uploads")]
try:
    project.upload("empty.txt")
    out["no_data"] = "uploaded"
except gitlab.exceptions.GitlabUploadError as e:
    out["no_data"] = str(e)
emit(out)
