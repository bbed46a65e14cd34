// The job a runner receives (GitLab's Ci::BuildRunnerPresenter and JobRequest::Response entity):
// steps, variables, git info, artifact uploads and dependencies.
import { branchRef, tagRef } from "@quarry/gitlab";
import type { JobPayload } from "@quarry/proto/types/ci/v1/JobPayload";
import type { JobPayloadVariable } from "@quarry/proto/types/ci/v1/JobPayloadVariable";
import { refSlug } from "../config/index.ts";
import type { CompiledArtifacts } from "../config/index.ts";
import type { CiDeps } from "../deps.ts";
import { jobEnvironment } from "../environments/environments.ts";
import type { Environment, Job, Pipeline, Runner } from "../generated/prisma/client.ts";
import { mergeRequestHeadRef, mergeRequestVariables, pipelineMergeRequest, sourceRef } from "./merge-request.ts";
import type { PipelineVariable } from "./store.ts";

/** GitLab's default job timeout (the project setting's default): one hour. */
export const DEFAULT_TIMEOUT_SECONDS = 3600;
/** GitLab's default GIT_DEPTH for new projects. */
const DEFAULT_GIT_DEPTH = 20;

interface BuildOptions {
  script?: string[];
  beforeScript?: string[];
  afterScript?: string[];
  dependencies?: string[] | null;
  artifacts?: CompiledArtifacts | null;
  image?: string | null;
  services?: string[];
  parallel?: { index: number; total: number } | null;
}

/** The timeout a job runs with: its own (or the default), capped by the runner's maximum. */
export function effectiveTimeout(job: Job, runner: Runner): number {
  const own = job.timeout ?? DEFAULT_TIMEOUT_SECONDS;
  return runner.maximumTimeout ? Math.min(own, runner.maximumTimeout) : own;
}

/** `expire_in` as the runner passes it back on upload: empty = default, "never", or seconds. */
function expireIn(artifacts: CompiledArtifacts): string {
  if (artifacts.expireInSeconds === undefined) return "";
  if (artifacts.expireInSeconds === null) return "never";
  return `${artifacts.expireInSeconds} seconds`;
}

function artifactUploads(artifacts: CompiledArtifacts | null | undefined): JobPayload["artifacts"] {
  if (!artifacts) return [];
  const uploads: JobPayload["artifacts"] = [];
  if (artifacts.paths.length > 0 || artifacts.untracked) {
    uploads.push({
      name: artifacts.name ?? "artifacts",
      untracked: artifacts.untracked,
      paths: artifacts.paths,
      exclude: artifacts.exclude,
      when: artifacts.when,
      artifactType: "archive",
      artifactFormat: "zip",
      expireIn: expireIn(artifacts),
    });
  }
  for (const [type, paths] of Object.entries(artifacts.reports ?? {})) {
    if (paths.length === 0) continue;
    // Reports are uploaded whatever the outcome, as GitLab's presenter does.
    uploads.push({
      name: type,
      untracked: false,
      paths,
      exclude: [],
      when: "always",
      artifactType: type,
      artifactFormat: "gzip",
      expireIn: expireIn(artifacts),
    });
  }
  return uploads;
}

/** Jobs whose artifacts this one downloads: `dependencies:`, else `needs:` with artifacts, else every earlier stage. */
async function dependencies(deps: CiDeps, job: Job, options: BuildOptions): Promise<JobPayload["dependencies"]> {
  const jobs = await deps.prisma.job.findMany({
    where: { pipelineId: job.pipelineId, retried: false, type: "build", id: { not: job.id } },
    include: { artifacts: { where: { fileType: "archive" } } },
    orderBy: { id: "asc" },
  });
  const needs = job.needs as { name: string; artifacts: boolean }[] | null;
  let chosen = jobs.filter((j) => j.stageIdx < job.stageIdx);
  if (needs) {
    const names = new Set(needs.filter((n) => n.artifacts).map((n) => n.name));
    chosen = jobs.filter((j) => names.has(j.name));
  }
  if (options.dependencies) {
    const names = new Set(options.dependencies);
    chosen = jobs.filter((j) => names.has(j.name));
  }
  return chosen.map((j) => {
    const archive = j.artifacts[0];
    return { id: j.id, name: j.name, artifactsFilename: archive?.filename ?? "", artifactsSize: archive ? Number(archive.size) : 0 };
  });
}

/** The git HTTP URL a job clones with: the job token as the password of `gitlab-ci-token`. */
export function cloneUrl(externalUrl: string, projectPath: string, token: string): string {
  const url = new URL(`${externalUrl}/${projectPath}.git`);
  url.username = "gitlab-ci-token";
  url.password = token;
  return url.toString();
}

export interface PayloadInput {
  job: Job;
  pipeline: Pipeline;
  runner: Runner;
  token: string;
  /** e.g. https://quarry.example.com (no trailing slash). */
  externalUrl: string;
  /** The environment the job's `environment:` names (CI_ENVIRONMENT_SLUG, CI_ENVIRONMENT_TIER). */
  environment?: Environment | null;
}

export function jobVariables(input: PayloadInput, timeout: number): JobPayloadVariable[] {
  const { job, pipeline, runner, token, externalUrl } = input;
  const url = new URL(externalUrl);
  const projectUrl = `${externalUrl}/${pipeline.projectPath}`;
  const namespace = pipeline.projectPath.split("/").slice(0, -1).join("/");
  const options = job.options as BuildOptions;
  const vars: [string, string, { masked?: boolean; public?: boolean }?][] = [
    ["CI", "true"],
    ["GITLAB_CI", "true"],
    ["CI_SERVER", "yes"],
    ["CI_SERVER_URL", externalUrl],
    ["CI_SERVER_HOST", url.hostname],
    ["CI_SERVER_PORT", url.port || (url.protocol === "https:" ? "443" : "80")],
    ["CI_SERVER_PROTOCOL", url.protocol.replace(":", "")],
    ["CI_SERVER_NAME", "Quarry"],
    ["CI_API_V4_URL", `${externalUrl}/api/v4`],
    ["CI_PROJECT_ID", String(job.projectId)],
    ["CI_PROJECT_NAME", pipeline.projectPath.split("/").pop()!],
    ["CI_PROJECT_PATH", pipeline.projectPath],
    ["CI_PROJECT_PATH_SLUG", refSlug(pipeline.projectPath)],
    ["CI_PROJECT_NAMESPACE", namespace],
    ["CI_PROJECT_ROOT_NAMESPACE", namespace.split("/")[0] ?? ""],
    ["CI_PROJECT_URL", projectUrl],
    ["CI_PIPELINE_ID", String(pipeline.id)],
    ["CI_PIPELINE_IID", String(pipeline.iid)],
    ["CI_PIPELINE_SOURCE", pipeline.source],
    ["CI_PIPELINE_URL", `${projectUrl}/-/pipelines/${pipeline.id}`],
    ["CI_PIPELINE_CREATED_AT", pipeline.createdAt.toISOString().replace(/\.\d+Z$/, "Z")],
    ["CI_JOB_ID", String(job.id)],
    ["CI_JOB_NAME", job.name],
    ["CI_JOB_NAME_SLUG", refSlug(job.name)],
    ["CI_JOB_STAGE", job.stage],
    ["CI_JOB_URL", `${projectUrl}/-/jobs/${job.id}`],
    ["CI_JOB_TOKEN", token, { masked: true, public: false }],
    ["CI_JOB_TIMEOUT", String(timeout)],
    ["CI_JOB_STARTED_AT", (job.startedAt ?? new Date()).toISOString().replace(/\.\d+Z$/, "Z")],
    ["CI_REPOSITORY_URL", cloneUrl(externalUrl, pipeline.projectPath, token), { masked: false, public: false }],
    ["CI_COMMIT_SHA", pipeline.sha],
    ["CI_COMMIT_SHORT_SHA", pipeline.sha.slice(0, 8)],
    ["CI_COMMIT_BEFORE_SHA", pipeline.beforeSha],
    ["CI_COMMIT_REF_NAME", sourceRef(pipeline)],
    ["CI_COMMIT_REF_SLUG", refSlug(sourceRef(pipeline))],
    ["CI_COMMIT_REF_PROTECTED", String(pipeline.protected)],
    ["CI_COMMIT_TITLE", pipeline.commitTitle],
    ["CI_COMMIT_MESSAGE", pipeline.commitMessage],
    ["CI_COMMIT_AUTHOR", `${pipeline.commitAuthorName} <${pipeline.commitAuthorEmail}>`],
    ["CI_COMMIT_TIMESTAMP", pipeline.committedAt?.toISOString() ?? ""],
    ["CI_DEFAULT_BRANCH", pipeline.defaultBranch],
    ["CI_RUNNER_ID", String(runner.id)],
    ["CI_RUNNER_DESCRIPTION", runner.description],
    ["CI_RUNNER_TAGS", JSON.stringify(runner.tagList)],
    ["GITLAB_USER_ID", String(job.userId)],
  ];
  const mergeRequest = pipelineMergeRequest(pipeline);
  // Merge request pipelines have no CI_COMMIT_BRANCH (GitLab), but the merge request's variables.
  if (pipeline.tag) vars.push(["CI_COMMIT_TAG", pipeline.ref]);
  else if (!mergeRequest) vars.push(["CI_COMMIT_BRANCH", pipeline.ref]);
  if (mergeRequest) vars.push(...Object.entries(mergeRequestVariables(mergeRequest, pipeline.projectPath, projectUrl)));
  const environment = jobEnvironment(job);
  if (environment) {
    vars.push(["CI_ENVIRONMENT_NAME", environment.name], ["CI_ENVIRONMENT_ACTION", environment.action ?? "start"]);
    if (input.environment) vars.push(["CI_ENVIRONMENT_SLUG", input.environment.slug], ["CI_ENVIRONMENT_TIER", input.environment.tier]);
    const url = environment.url ?? input.environment?.externalUrl;
    if (url) vars.push(["CI_ENVIRONMENT_URL", url]);
  }
  if (options.parallel) vars.push(["CI_NODE_INDEX", String(options.parallel.index)], ["CI_NODE_TOTAL", String(options.parallel.total)]);
  const out: JobPayloadVariable[] = vars.map(([key, value, flags]) => ({
    key,
    value,
    public: flags?.public ?? true,
    masked: flags?.masked ?? false,
    file: false,
    raw: false,
  }));
  // YAML variables, then the pipeline's own (trigger/API variables win, as in GitLab).
  for (const [key, value] of Object.entries(job.variables as Record<string, string>))
    out.push({ key, value, public: true, masked: false, file: false, raw: false });
  for (const v of pipeline.variables as unknown as PipelineVariable[]) {
    out.push({ key: v.key, value: v.value, public: false, masked: false, file: v.variable_type === "file", raw: false });
  }
  return out;
}

/** The stored environment a job's `environment:` names, if any. */
async function environmentOf(deps: CiDeps, job: Job): Promise<Environment | null> {
  const env = jobEnvironment(job);
  return env ? deps.prisma.environment.findUnique({ where: { projectId_name: { projectId: job.projectId, name: env.name } } }) : null;
}

export async function buildPayload(deps: CiDeps, input: PayloadInput): Promise<JobPayload> {
  const { job, pipeline, runner, token, externalUrl } = input;
  const options = job.options as BuildOptions;
  const timeout = effectiveTimeout(job, runner);
  const mergeRequest = pipelineMergeRequest(pipeline);
  const refspec = mergeRequest
    ? `+${mergeRequestHeadRef(mergeRequest.iid)}:${mergeRequestHeadRef(mergeRequest.iid)}`
    : pipeline.tag
      ? `+${tagRef(pipeline.ref)}:${tagRef(pipeline.ref)}`
      : `+${branchRef(pipeline.ref)}:refs/remotes/origin/${pipeline.ref}`;
  const depthVariable = Number((job.variables as Record<string, string>).GIT_DEPTH);
  return {
    id: job.id,
    token,
    name: job.name,
    stage: job.stage,
    projectId: job.projectId,
    projectName: pipeline.projectPath.split("/").pop()!,
    repoUrl: cloneUrl(externalUrl, pipeline.projectPath, token),
    ref: pipeline.ref,
    sha: pipeline.sha,
    beforeSha: pipeline.beforeSha,
    refType: pipeline.tag ? "tag" : "branch",
    refspecs: [refspec],
    depth: Number.isInteger(depthVariable) && depthVariable >= 0 ? depthVariable : DEFAULT_GIT_DEPTH,
    timeout,
    variables: jobVariables({ ...input, environment: await environmentOf(deps, job) }, timeout),
    steps: [
      { name: "script", script: [...(options.beforeScript ?? []), ...(options.script ?? [])], timeout, when: "on_success", allowFailure: false },
      ...(options.afterScript?.length ? [{ name: "after_script", script: options.afterScript, timeout, when: "always", allowFailure: true }] : []),
    ],
    image: options.image ?? "",
    artifacts: artifactUploads(options.artifacts),
    dependencies: await dependencies(deps, job, options),
    services: options.services ?? [],
  };
}
