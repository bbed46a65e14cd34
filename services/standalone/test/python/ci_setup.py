"""A project with a .gitlab-ci.yml, and a pipeline of main created through the API."""
from common import arg, client, emit

gl = client()
project = gl.projects.create({"name": f"py-ci-{arg('suffix')}", "initialize_with_readme": True})
project.commits.create({"branch": "main", "commit_message": "Add CI", "actions": [{"action": "create", "file_path": ".gitlab-ci.yml", "content": arg("ci_yaml")}]})
pipeline = project.pipelines.create({"ref": "main", "variables": [{"key": "FROM_PY", "value": "yes"}]})
emit({
    "project_id": project.id,
    "pipeline": {"id": pipeline.id, "ref": pipeline.ref, "status": pipeline.status, "source": pipeline.source},
    "jobs": sorted((j.name, j.stage, j.status) for j in pipeline.jobs.list()),
})
