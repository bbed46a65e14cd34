"""Once a runner has run `compile` (with an artifact archive and a trace) and `rspec`: pipelines,
jobs, traces and artifacts as python-gitlab reads them, then the job and pipeline actions."""
import io
import zipfile

import gitlab

from common import arg, client, emit

gl = client()
project = gl.projects.get(int(arg("project_id")))
pipeline_id = int(arg("pipeline_id"))
out = {}

out["pipelines"] = [(p.id, p.status) for p in project.pipelines.list(ref="main")]
pipeline = project.pipelines.get(pipeline_id)
out["pipeline"] = {"status": pipeline.status, "ref": pipeline.ref, "sha_matches": pipeline.sha == project.commits.get("main").id}
jobs = {j.name: j for j in pipeline.jobs.list()}
out["pipeline_jobs"] = sorted((j.name, j.status) for j in jobs.values())
out["project_jobs"] = sorted(j.name for j in project.jobs.list(scope=["success"]))

compile_job = project.jobs.get(jobs["compile"].id)
out["compile"] = {"status": compile_job.status, "stage": compile_job.stage, "artifacts_file": compile_job.artifacts_file["filename"]}
out["trace"] = compile_job.trace().decode()
archive = zipfile.ZipFile(io.BytesIO(compile_job.artifacts()))
out["archive_names"] = archive.namelist()
out["artifact_file"] = compile_job.artifact("app.txt").decode()
out["artifact_by_ref"] = project.artifacts.raw("main", "app.txt", "compile").decode()
compile_job.keep_artifacts()
out["kept_expire_at"] = project.jobs.get(compile_job.id).artifacts_expire_at

deploy = project.jobs.get(jobs["deploy"].id)
deploy.play()
out["deploy_after_play"] = project.jobs.get(deploy.id).status
deploy.cancel()
out["deploy_after_cancel"] = project.jobs.get(deploy.id).status
retried = deploy.retry()
out["retried"] = {"name": retried["name"], "new_id": retried["id"] != deploy.id}

compile_job.delete_artifacts()
try:
    compile_job.artifacts()
    out["artifacts_deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["artifacts_deleted"] = e.response_code

second = project.pipelines.create({"ref": "main"})
second.cancel()
out["second_after_cancel"] = project.pipelines.get(second.id).status
second.retry()
out["second_after_retry"] = project.pipelines.get(second.id).status
project.pipelines.delete(second.id)
try:
    project.pipelines.get(second.id)
    out["pipeline_deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["pipeline_deleted"] = e.response_code
emit(out)
