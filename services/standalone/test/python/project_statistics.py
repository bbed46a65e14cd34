"""Project statistics and the runner registration token through python-gitlab:
gl.projects.get(id, statistics=True).statistics, project.runners_token."""
from common import arg, client, emit

gl = client()
project = gl.projects.get(int(arg("project_id")), statistics=True)
plain = gl.projects.get(int(arg("project_id")))
emit({
    "statistics": project.statistics,
    "plain_has_statistics": "statistics" in plain.attributes,
    "runners_token": getattr(project, "runners_token", None),
})
