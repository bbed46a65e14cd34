// GitLab's pipeline, job and deployment webhook payloads (Gitlab::DataBuilder::Pipeline, ::Build,
// ::Deployment) less what hook-service adds from identity-service: `user` (user_id here; each
// build's `user_id` likewise), `project` and `repository`. Web URLs are paths below the external
// URL, which hook-service prefixes.
import { randomUUID } from "node:crypto";
import type { DeploymentEvent, JobEvent, PipelineEvent } from "@quarry/bus";
import { jobEnvironment } from "../environments/environments.ts";
import type { Deployment, Environment, Job, JobArtifact, Pipeline, Runner } from "../generated/prisma/client.ts";
import { pipelineMergeRequest, sourceRef } from "../pipelines/merge-request.ts";

/** A time as GitLab's hook data shows it: `2023-07-04 20:44:11 UTC`. */
export function hookTime(d: Date | null | undefined): string | null {
  return d ? `${d.toISOString().slice(0, 19).replace("T", " ")} UTC` : null;
}

const seconds = (from: Date | null, to: Date | null): number | null => (from && to ? (to.getTime() - from.getTime()) / 1000 : null);

/** GitLab's detailed status label of a pipeline (Gitlab::Ci::Status::Pipeline::Factory). */
export function detailedStatusLabel(p: Pick<Pipeline, "status" | "warnings">): string {
  if (p.status === "success") return p.warnings ? "passed with warnings" : "passed";
  if (p.status === "manual") return "waiting for manual action";
  if (p.status === "scheduled") return "waiting for delayed job";
  if (p.status === "waiting_for_resource") return "waiting for resource";
  return p.status;
}

/** A job's duration as GitLab computes it: from start to finish, or to now while it runs. */
const jobDuration = (j: Pick<Job, "startedAt" | "finishedAt">, now: Date) => (j.startedAt ? seconds(j.startedAt, j.finishedAt ?? now) : null);
const queuedDuration = (j: Pick<Job, "queuedAt" | "startedAt">, now: Date) => (j.queuedAt ? seconds(j.queuedAt, j.startedAt ?? now) : null);

export function runnerHookAttrs(r: Runner | null | undefined) {
  if (!r) return null;
  return { id: r.id, description: r.description, runner_type: r.runnerType, active: !r.paused, is_shared: r.runnerType === "instance_type", tags: r.tagList };
}

/** A build as listed in the pipeline hook (build_hook_attrs); `user_id` becomes `user` in hook-service. */
function buildHookAttrs(job: Job, runner: Runner | null | undefined, archive: JobArtifact | undefined, now: Date) {
  const env = jobEnvironment(job);
  return {
    id: job.id,
    stage: job.stage,
    name: job.name,
    status: job.status,
    created_at: hookTime(job.createdAt),
    started_at: hookTime(job.startedAt),
    finished_at: hookTime(job.finishedAt),
    duration: jobDuration(job, now),
    queued_duration: queuedDuration(job, now),
    failure_reason: job.status === "failed" ? (job.failureReason ?? null) : null,
    when: job.when,
    manual: job.when === "manual",
    allow_failure: job.allowFailure,
    user_id: job.userId,
    runner: runnerHookAttrs(runner),
    artifacts_file: { filename: archive?.filename ?? null, size: archive ? Number(archive.size) : null },
    environment: env ? { name: env.name, action: env.action ?? "start", deployment_tier: null as string | null } : null,
  };
}

export interface PipelineFacts {
  pipeline: Pipeline;
  /** The pipeline's jobs (retried ones are left out here, as GitLab's latest_builds). */
  jobs: readonly Job[];
  runners: ReadonlyMap<number, Runner>;
  /** Archive artifacts by job id. */
  archives: ReadonlyMap<number, JobArtifact>;
  /** The pipeline's environments by name (for builds' deployment_tier). */
  environments: ReadonlyMap<string, Environment>;
  /** Stage names in order. */
  stages: readonly string[];
}

export function pipelineEvent(f: PipelineFacts, now = new Date()): PipelineEvent {
  const { pipeline: p } = f;
  const mr = pipelineMergeRequest(p);
  const projectPath = `/${p.projectPath}`;
  const builds = f.jobs
    .filter((j) => j.type === "build" && !j.retried)
    .map((j) => {
      const attrs = buildHookAttrs(j, j.runnerId ? f.runners.get(j.runnerId) : null, f.archives.get(j.id), now);
      if (attrs.environment) attrs.environment.deployment_tier = f.environments.get(attrs.environment.name)?.tier ?? null;
      return attrs;
    });
  return {
    event_id: randomUUID(),
    object_kind: "pipeline",
    user_id: p.userId,
    project_id: p.projectId,
    object_attributes: {
      id: p.id,
      iid: p.iid,
      name: p.name,
      ref: sourceRef(p),
      tag: p.tag,
      sha: p.sha,
      before_sha: p.beforeSha,
      source: p.source,
      status: p.status,
      detailed_status: detailedStatusLabel(p),
      stages: [...f.stages],
      created_at: hookTime(p.createdAt),
      finished_at: hookTime(p.finishedAt),
      duration: p.startedAt && p.finishedAt ? Math.round(seconds(p.startedAt, p.finishedAt)!) : null,
      queued_duration: p.startedAt ? Math.round(seconds(p.createdAt, p.startedAt)!) : null,
      protected_ref: p.protected,
      variables: (p.variables as { key: string; value: string }[]).map((v) => ({ key: v.key, value: v.value })),
      url: `${projectPath}/-/pipelines/${p.id}`,
    },
    merge_request: mr
      ? {
          id: mr.id,
          iid: mr.iid,
          title: mr.title,
          source_branch: mr.source_branch,
          source_project_id: mr.source_project_id,
          target_branch: mr.target_branch,
          target_project_id: mr.target_project_id,
          state: mr.state,
          merge_status: mr.merge_status,
          detailed_merge_status: mr.detailed_merge_status,
          url: mr.url || `${projectPath}/-/merge_requests/${mr.iid}`,
        }
      : null,
    commit: {
      id: p.sha,
      message: p.commitMessage,
      title: p.commitTitle,
      timestamp: p.committedAt?.toISOString().replace(/\.\d{3}Z$/, "Z") ?? null,
      url: `${projectPath}/-/commit/${p.sha}`,
      author: { name: p.commitAuthorName, email: p.commitAuthorEmail },
    },
    builds,
  };
}

/** Gitlab::DataBuilder::Build for one job (`user_id` for `user`; hook-service adds project_name, user and repository). */
export function jobEvent(job: Job, p: Pipeline, runner: Runner | null | undefined, retriesCount: number, now = new Date()): JobEvent {
  const env = jobEnvironment(job);
  return {
    event_id: randomUUID(),
    object_kind: "build",
    ref: sourceRef(p),
    tag: p.tag,
    before_sha: p.beforeSha,
    sha: p.sha,
    build_id: job.id,
    build_name: job.name,
    build_stage: job.stage,
    build_status: job.status,
    build_created_at: hookTime(job.createdAt),
    build_started_at: hookTime(job.startedAt),
    build_finished_at: hookTime(job.finishedAt),
    build_duration: jobDuration(job, now),
    build_queued_duration: queuedDuration(job, now),
    build_allow_failure: job.allowFailure,
    build_failure_reason: job.failureReason ?? "unknown_failure",
    retries_count: retriesCount,
    pipeline_id: p.id,
    runner: runnerHookAttrs(runner),
    project_id: p.projectId,
    user_id: job.userId,
    commit: {
      id: p.id,
      name: p.name,
      sha: p.sha,
      message: p.commitMessage,
      author_name: p.commitAuthorName,
      author_email: p.commitAuthorEmail,
      author_url: `mailto:${p.commitAuthorEmail}`,
      status: p.status,
      duration: p.startedAt && p.finishedAt ? Math.round(seconds(p.startedAt, p.finishedAt)!) : null,
      started_at: hookTime(p.startedAt),
      finished_at: hookTime(p.finishedAt),
    },
    environment: env ? { name: env.name, action: env.action ?? "start" } : null,
  };
}

/** Gitlab::DataBuilder::Deployment (`user_id` for `user` and `user_url`; hook-service adds project). */
export function deploymentEvent(d: Deployment, env: Environment, job: Job, p: Pipeline): DeploymentEvent {
  const projectPath = `/${p.projectPath}`;
  return {
    event_id: randomUUID(),
    object_kind: "deployment",
    status: d.status,
    status_changed_at: hookTime(d.updatedAt),
    deployment_id: d.id,
    deployable_id: job.id,
    deployable_url: `${projectPath}/-/jobs/${job.id}`,
    environment: env.name,
    environment_tier: env.tier,
    environment_slug: env.slug,
    environment_external_url: env.externalUrl,
    project_id: d.projectId,
    short_sha: d.sha.slice(0, 8),
    user_id: d.userId,
    commit_url: `${projectPath}/-/commit/${d.sha}`,
    commit_title: p.commitTitle,
    ref: d.ref,
  };
}
