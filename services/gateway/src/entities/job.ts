import type { Job__Output as Job } from "@quarry/proto/types/ci/v1/Job";
import type { JobRunner__Output as JobRunner } from "@quarry/proto/types/ci/v1/JobRunner";
import type { JobRunnerManager__Output as JobRunnerManager } from "@quarry/proto/types/ci/v1/JobRunnerManager";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { ciProjectPath, pipelineBasic, type CiUrls } from "./pipeline.ts";
import { userPublicProfile } from "./user.ts";
import { orNull, webUrl } from "./urls.ts";

/** Users of a page by id; a job whose user is gone shows `user: null`. */
export type UsersById = ReadonlyMap<number, User>;

/** The runner as a job shows it (API::Entities::Ci::Runner; GitLab no longer exposes its IP address). */
function runnerEntity(r: JobRunner) {
  return {
    id: r.id,
    description: r.description,
    ip_address: null,
    active: r.active,
    paused: r.paused,
    is_shared: r.isShared,
    runner_type: r.runnerType,
    name: orNull(r.name),
    online: r.online,
    status: r.status,
  };
}

function runnerManagerEntity(m: JobRunnerManager) {
  return {
    id: m.id,
    system_id: m.systemId,
    version: m.version,
    revision: m.revision,
    platform: m.platform,
    architecture: m.architecture,
    created_at: orNull(m.createdAt),
    contacted_at: orNull(m.contactedAt),
    ip_address: orNull(m.ipAddress),
    status: m.status,
  };
}

/** The pipeline's commit as jobs show it (the fields GitLab's job documentation lists). */
function jobCommit(j: Job) {
  const sha = j.pipeline?.sha ?? "";
  return {
    id: sha,
    short_id: sha.slice(0, 8),
    created_at: orNull(j.pipeline?.committedAt),
    title: j.commitTitle,
    message: j.commitMessage,
    author_name: j.commitAuthorName,
    author_email: j.commitAuthorEmail,
  };
}

/** API::Entities::Ci::JobBasic, the part builds and bridges share. */
function jobBasic(j: Job, users: UsersById, u: CiUrls) {
  const user = users.get(j.userId);
  return {
    id: j.id,
    status: j.status,
    stage: j.stage,
    name: j.name,
    ref: j.ref,
    tag: j.tag,
    coverage: j.coverage ?? null,
    allow_failure: j.allowFailure,
    created_at: orNull(j.createdAt),
    started_at: orNull(j.startedAt),
    finished_at: orNull(j.finishedAt),
    erased_at: orNull(j.erasedAt),
    duration: j.duration ?? null,
    queued_duration: j.queuedDuration ?? null,
    user: user ? userPublicProfile(user, u) : null,
    commit: jobCommit(j),
    pipeline: j.pipeline ? pipelineBasic(j.pipeline, u) : null,
    // Ci::Build#source: the pipeline's source (push, web, api, trigger, parent_pipeline, ...).
    source: j.source,
    ...(j.status === "failed" ? { failure_reason: orNull(j.failureReason) } : {}),
    web_url: webUrl(u, `${ciProjectPath(u, j.projectId, j.pipeline?.projectPath ?? "")}/-/jobs/${j.id}`),
    // GitLab shows the deprecated outbound scope setting here, which can no longer be turned on.
    project: { ci_job_token_scope_enabled: false },
  };
}

/** A build (API::Entities::Ci::Job). */
export function jobEntity(j: Job, users: UsersById, u: CiUrls) {
  const archive = j.artifacts.find((a) => a.fileType === "archive");
  return {
    ...jobBasic(j, users, u),
    ...(archive ? { artifacts_file: { filename: archive.filename, size: archive.size } } : {}),
    artifacts: j.artifacts.map((a) => ({ file_type: a.fileType, size: a.size, filename: a.filename, file_format: a.fileFormat })),
    runner: j.runner ? runnerEntity(j.runner) : null,
    runner_manager: j.runnerManager ? runnerManagerEntity(j.runnerManager) : null,
    artifacts_expire_at: orNull(j.artifactsExpireAt),
    archived: j.archived,
    tag_list: [...j.tagList].sort(),
  };
}

/** A trigger job (API::Entities::Ci::Bridge). */
export function bridgeEntity(j: Job, users: UsersById, u: CiUrls) {
  return { ...jobBasic(j, users, u), downstream_pipeline: j.downstreamPipeline ? pipelineBasic(j.downstreamPipeline, u) : null };
}
