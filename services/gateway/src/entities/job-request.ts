// The job a runner receives from POST /jobs/request (GitLab's API::Entities::Ci::JobRequest::Response).
import type { JobPayload__Output as JobPayload } from "@quarry/proto/types/ci/v1/JobPayload";
import { FAILURE_REASONS } from "./failure-reasons.ts";

export function jobRequestEntity(j: JobPayload) {
  return {
    id: Number(j.id),
    token: j.token,
    allow_git_fetch: true,
    job_info: {
      id: Number(j.id),
      name: j.name,
      stage: j.stage,
      project_id: Number(j.projectId),
      project_name: j.projectName,
    },
    git_info: {
      repo_url: j.repoUrl,
      ref: j.ref,
      sha: j.sha,
      before_sha: j.beforeSha,
      ref_type: j.refType,
      refspecs: j.refspecs,
      depth: j.depth,
      repo_object_format: "sha1",
    },
    runner_info: { timeout: j.timeout, runner_session_url: null },
    variables: j.variables.map((v) => ({
      key: v.key,
      value: v.value,
      public: v.public,
      masked: v.masked,
      ...(v.file ? { file: true } : {}),
      ...(v.raw ? { raw: true } : {}),
    })),
    steps: j.steps.map((s) => ({ name: s.name, script: s.script, timeout: s.timeout, when: s.when, allow_failure: s.allowFailure })),
    image: j.image ? { name: j.image, entrypoint: null, ports: [], executor_opts: {}, pull_policy: null } : null,
    services: j.services.map((name) => ({ name, entrypoint: null, ports: [], alias: null, command: null, variables: [] })),
    artifacts: j.artifacts.map((a) => ({
      name: a.name,
      untracked: a.untracked,
      paths: a.paths,
      exclude: a.exclude,
      when: a.when,
      artifact_type: a.artifactType,
      artifact_format: a.artifactFormat,
      expire_in: a.expireIn || null,
    })),
    cache: [],
    credentials: [],
    dependencies: j.dependencies.map((d) => ({
      id: Number(d.id),
      name: d.name,
      token: j.token,
      ...(d.artifactsFilename ? { artifacts_file: { filename: d.artifactsFilename, size: Number(d.artifactsSize) } } : {}),
    })),
    features: { trace_sections: true, failure_reasons: FAILURE_REASONS },
    hooks: [],
  };
}
