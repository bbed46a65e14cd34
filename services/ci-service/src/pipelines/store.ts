// Storing a new pipeline (the first half of GitLab's Ci::CreatePipelineService): read the CI
// config at the commit, compile it for the ref, store the pipeline and its jobs. Processing it is
// the caller's (create.ts for new pipelines, downstream.ts for child pipelines), so that this
// room imports no processing and processing can create child pipelines without an import cycle.
import { branchRef, tagRef } from "@quarry/gitlab";
import { compilePipeline, predefinedVariables } from "../config/index.ts";
import type { CompiledBridge, CompiledJob, CompiledPipeline, PipelineSource } from "../config/index.ts";
import type { CiDeps, CommitFacts, ProjectFacts } from "../deps.ts";
import { createEnvironmentsAndDeployments, expandEnvironment } from "../environments/environments.ts";
import type { Pipeline, Prisma } from "../generated/prisma/client.ts";
import { mergeRequestHeadRef, mergeRequestVariables, type MergeRequestSnapshot } from "./merge-request.ts";

export const DEFAULT_CI_CONFIG_PATH = ".gitlab-ci.yml";
/** GitLab's message when the commit has no CI config (API-created pipelines only; pushes just skip). */
export const MISSING_CONFIG = "Missing CI config file";
/** Rounds of fetching `include: local:` files before giving up (GitLab allows 150 includes). */
const MAX_INCLUDE_ROUNDS = 20;

export interface PipelineVariable {
  key: string;
  value: string;
  variable_type: "env_var" | "file";
}

export interface NewPipeline {
  project: ProjectFacts;
  ref: string;
  tag: boolean;
  /** The commit; when absent the ref's head is used. */
  sha?: string;
  beforeSha?: string;
  source: PipelineSource;
  userId: number;
  refProtected: boolean;
  variables: PipelineVariable[];
  /**
   * Store a pipeline with `yaml_errors` when the config is invalid (pushes) instead of refusing
   * (the API: GitLab's save_on_errors).
   */
  saveOnErrors: boolean;
  /** The push event behind it (deduplicates redeliveries). */
  triggerEventId?: string;
  /** Child pipelines: the parent and the bridge, and the YAML to compile instead of the config file. */
  parent?: { pipelineId: number; jobId: number; yaml: string };
  /**
   * Merge request pipelines (`source` merge_request_event): the merge request. `ref` is then its
   * source branch (what rules and jobs see as CI_COMMIT_REF_NAME); the pipeline is stored with
   * ref `refs/merge-requests/<iid>/head`, as GitLab stores it.
   */
  mergeRequest?: MergeRequestSnapshot;
}

export type CreateOutcome =
  | { created: Pipeline }
  /** Nothing created: no commit, no config file, rules left no job, or (without saveOnErrors) an invalid config. */
  | { skipped: "no_config" | "filtered" | "no_commit" | "invalid"; messages: string[] };

/** storePipeline's outcome: `compiled` is false for a pipeline stored with yaml errors. */
export type StoreOutcome = { created: Pipeline; compiled: boolean } | Extract<CreateOutcome, { skipped: unknown }>;

/**
 * Compiles and stores a pipeline without processing it: `created` is the stored row, status
 * `created` (or `failed` with yaml errors); `compiled` says whether its jobs await processing.
 */
export async function storePipeline(deps: CiDeps, input: NewPipeline): Promise<StoreOutcome> {
  const { project } = input;
  const commit = await deps.repositories.findCommit(project.diskPath, input.sha ?? (input.tag ? tagRef(input.ref) : branchRef(input.ref)));
  if (!commit) return { skipped: "no_commit", messages: ["Reference not found"] };

  const configPath = project.ciConfigPath || DEFAULT_CI_CONFIG_PATH;
  const yaml = input.parent?.yaml ?? (await deps.repositories.readFile(project.diskPath, commit.sha, configPath));
  if (yaml === null) return { skipped: "no_config", messages: [MISSING_CONFIG] };

  const variables = {
    ...(input.mergeRequest ? mergeRequestVariables(input.mergeRequest, project.pathWithNamespace, "") : {}),
    ...Object.fromEntries(input.variables.map((v) => [v.key, v.value])),
  };
  const files = new Map<string, string | null>();
  let result = compilePipeline(yaml, contextFor(input, commit, variables, files));
  // The compiler reads `include: local:` synchronously; fetch what it missed and compile again.
  for (let round = 0; round < MAX_INCLUDE_ROUNDS; round++) {
    const missing = [...files].filter(([, text]) => text === undefined).map(([path]) => path);
    if (missing.length === 0) break;
    for (const path of missing) files.set(path, await deps.repositories.readFile(project.diskPath, commit.sha, path));
    result = compilePipeline(yaml, contextFor(input, commit, variables, files));
  }

  if (result.status === "filtered") return { skipped: "filtered", messages: [result.message] };
  if (result.status === "invalid" && !input.saveOnErrors) return { skipped: "invalid", messages: result.errors };
  const pipeline = await insertPipeline(
    deps,
    input,
    { ...predefinedVariables(contextFor(input, commit, variables, files)), ...variables },
    commit,
    result.status === "pipeline" ? result.pipeline : null,
    result.status === "invalid" ? result.errors : [],
  );
  return { created: pipeline, compiled: result.status === "pipeline" };
}

function contextFor(input: NewPipeline, commit: CommitFacts, variables: Record<string, string>, files: Map<string, string | null | undefined>) {
  return {
    ref: input.ref,
    tag: input.tag,
    sha: commit.sha,
    source: input.source,
    defaultBranch: input.project.defaultBranch,
    projectPath: input.project.pathWithNamespace,
    variables,
    readFile(path: string): string | null {
      if (!files.has(path)) files.set(path, undefined);
      return files.get(path) ?? null;
    },
  };
}

/**
 * Stores the pipeline, its jobs (their `environment:` expanded with `variables`, the predefined
 * and pipeline variables, and each job's own) and the environments and deployments they call for.
 */
async function insertPipeline(
  deps: CiDeps,
  input: NewPipeline,
  variables: Record<string, string>,
  commit: CommitFacts,
  compiled: CompiledPipeline | null,
  errors: string[],
): Promise<Pipeline> {
  return deps.prisma.$transaction(async (tx) => {
    const counter = await tx.pipelineCounter.upsert({
      where: { projectId: input.project.id },
      create: { projectId: input.project.id, lastIid: 1 },
      update: { lastIid: { increment: 1 } },
    });
    const invalid = compiled === null;
    const pipeline = await tx.pipeline.create({
      data: {
        iid: counter.lastIid,
        projectId: input.project.id,
        projectPath: input.project.pathWithNamespace,
        ref: input.mergeRequest ? mergeRequestHeadRef(input.mergeRequest.iid) : input.ref,
        tag: input.tag,
        protected: input.refProtected,
        sha: commit.sha,
        beforeSha: input.beforeSha ?? undefined,
        source: input.source,
        status: invalid ? "failed" : "created",
        yamlErrors: invalid ? errors.join(", ") : null,
        name: compiled?.workflow.name ?? null,
        userId: input.userId,
        variables: input.variables as unknown as Prisma.InputJsonValue,
        triggerEventId: input.triggerEventId ?? null,
        parentPipelineId: input.parent?.pipelineId ?? null,
        parentJobId: input.parent?.jobId ?? null,
        commitTitle: commit.title,
        commitMessage: commit.message,
        commitAuthorName: commit.authorName,
        commitAuthorEmail: commit.authorEmail,
        committedAt: commit.committedDate ? new Date(commit.committedDate) : null,
        defaultBranch: input.project.defaultBranch,
        finishedAt: invalid ? new Date() : null,
        mergeRequestIid: input.mergeRequest?.iid ?? null,
        mergeRequest: (input.mergeRequest ?? undefined) as Prisma.InputJsonValue | undefined,
      },
    });
    if (compiled) {
      const jobVariables = {
        ...variables,
        CI_PROJECT_ID: String(pipeline.projectId),
        CI_PIPELINE_ID: String(pipeline.id),
        CI_PIPELINE_IID: String(pipeline.iid),
      };
      await tx.job.createMany({
        data: [
          ...compiled.jobs.map((j) => jobRow(pipeline, j, "build", jobVariables)),
          ...compiled.bridges.map((b) => jobRow(pipeline, b, "bridge", jobVariables)),
        ],
      });
      await createEnvironmentsAndDeployments(tx, pipeline.id);
    }
    return pipeline;
  });
}

function jobRow(pipeline: Pipeline, j: CompiledJob | CompiledBridge, type: "build" | "bridge", variables: Record<string, string>): Prisma.JobCreateManyInput {
  const allowFailure = typeof j.allowFailure === "boolean" ? j.allowFailure : false;
  const exitCodes = typeof j.allowFailure === "boolean" ? [] : j.allowFailure.exitCodes;
  const body =
    type === "build"
      ? (({ script, beforeScript, afterScript, dependencies, artifacts, image, services, coverage, retry, parallel, environment }) => ({
          script,
          beforeScript,
          afterScript,
          dependencies,
          artifacts,
          image,
          services,
          coverage,
          retry,
          parallel,
          environment: environment && expandEnvironment(environment, { ...variables, CI_JOB_NAME: j.name, ...j.variables }),
        }))(j as CompiledJob)
      : (({ include, project, branch, strategy, forward }) => ({ trigger: { include, project, branch, strategy, forward } }))(j as CompiledBridge);
  return {
    pipelineId: pipeline.id,
    projectId: pipeline.projectId,
    type,
    name: j.name,
    stage: j.stage,
    stageIdx: j.stageIdx,
    when: j.when,
    allowFailure,
    allowFailureExitCodes: exitCodes,
    needs: (j.needs ?? undefined) as Prisma.InputJsonValue | undefined,
    options: body as unknown as Prisma.InputJsonValue,
    variables: j.variables,
    tagList: type === "build" ? (j as CompiledJob).tags : [],
    timeout: type === "build" ? (j as CompiledJob).timeoutSeconds : null,
    userId: pipeline.userId,
  };
}
