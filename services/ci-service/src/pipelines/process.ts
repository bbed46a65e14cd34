// Runs pipeline processing (src/processing) against the stored jobs and persists the outcome,
// then does what the new statuses call for: wake runners, trigger child pipelines, update a
// parent's bridge. GitLab's PipelineProcessWorker + AtomicProcessingService.
import { stringify } from "yaml";
import type { CiDeps } from "../deps.ts";
import type { Job, Pipeline, Prisma } from "../generated/prisma/client.ts";
import {
  isComplete,
  processPipeline,
  type JobStatus,
  type JobWhen,
  type ProcessableJob,
  type StatusChange,
} from "../processing/index.ts";
import { createPipeline, type PipelineVariable } from "./create.ts";

type Tx = Prisma.TransactionClient;

export function toProcessable(j: Job): ProcessableJob {
  const needs = j.needs as { name: string }[] | null;
  return {
    id: j.id,
    name: j.name,
    stageIdx: j.stageIdx,
    status: j.status as JobStatus,
    when: j.when as JobWhen,
    allowFailure: j.allowFailure,
    needs: needs ? needs.map((n) => n.name) : null,
    retried: j.retried,
    enqueueImmediately: j.enqueueImmediately,
  };
}

/** Locks a pipeline row so that processing passes over one pipeline never interleave. */
export async function lockPipeline(tx: Tx, pipelineId: number): Promise<Pipeline | null> {
  const rows = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM pipelines WHERE id = ${pipelineId} FOR UPDATE`;
  return rows.length ? tx.pipeline.findUnique({ where: { id: pipelineId } }) : null;
}

/** A pipeline's jobs, retried ones included, in creation order (as GitLab's services walk them). */
export const pipelineJobs = (tx: Tx, pipelineId: number): Promise<Job[]> => tx.job.findMany({ where: { pipelineId }, orderBy: { id: "asc" } });

/** Timestamps that go with a job entering `to`. */
export function jobTimestamps(to: JobStatus, now: Date): Prisma.JobUpdateManyMutationInput {
  if (to === "pending") return { queuedAt: now };
  if (isComplete(to)) return { finishedAt: now };
  return {};
}

/** Stores a pipeline's status derived from its jobs; returns it, with whether it changed. */
export async function updatePipelineStatus(tx: Tx, pipeline: Pipeline, status: JobStatus, warnings: boolean): Promise<{ pipeline: Pipeline; changed: boolean }> {
  const changed = pipeline.status !== status;
  if (!changed && pipeline.warnings === warnings) return { pipeline, changed };
  const now = new Date();
  const data: Prisma.PipelineUpdateInput = { status, warnings };
  if (status === "running" && !pipeline.startedAt) data.startedAt = now;
  if (isComplete(status)) data.finishedAt = now;
  else if (changed) data.finishedAt = null;
  return { pipeline: await tx.pipeline.update({ where: { id: pipeline.id }, data }), changed };
}

/**
 * One processing pass over a pipeline (run after anything changes a job's status). Safe to run
 * at any time and concurrently: passes over one pipeline serialize on its row lock.
 */
export async function processPipelineById(deps: CiDeps, pipelineId: number): Promise<void> {
  const outcome = await deps.prisma.$transaction(async (tx) => {
    const pipeline = await lockPipeline(tx, pipelineId);
    if (!pipeline) return null;
    const jobs = await tx.job.findMany({ where: { pipelineId } });
    const result = processPipeline(jobs.map(toProcessable), { pipeline: pipeline.status as JobStatus });
    await applyStatusChanges(tx, result.changes);
    const byId = new Map(jobs.map((j) => [j.id, j]));
    const enqueued = result.changes.filter((c) => c.to === "pending").map((c) => byId.get(c.id)!);
    const updated = await updatePipelineStatus(tx, pipeline, result.status, result.warnings);
    return { ...updated, enqueued };
  });
  if (!outcome) return;
  await startEnqueued(deps, outcome.pipeline, outcome.enqueued);
  if (outcome.changed && outcome.pipeline.parentJobId) await mirrorChildStatus(deps, outcome.pipeline);
}

/** Stores job status changes; a job whose status moved on meanwhile keeps it. */
export async function applyStatusChanges(tx: Tx, changes: readonly StatusChange[], now = new Date()): Promise<void> {
  for (const change of changes) {
    await tx.job.updateMany({ where: { id: change.id, status: change.from }, data: { status: change.to, enqueueImmediately: false, ...jobTimestamps(change.to, now) } });
  }
}

/**
 * What jobs that just became pending call for: runners are woken for builds, bridges create
 * their child pipelines. Processing does this for the jobs it enqueues; a played job needs it too.
 */
export async function startEnqueued(deps: CiDeps, pipeline: Pipeline, enqueued: readonly Job[]): Promise<void> {
  if (enqueued.some((j) => j.type === "build")) deps.queue.notify();
  for (const bridge of enqueued.filter((j) => j.type === "bridge")) await triggerChildPipeline(deps, bridge, pipeline);
}

interface BridgeTrigger {
  include: ({ local: string } | { artifact: string; job: string })[];
  strategy: "depend" | null;
  forward: { yamlVariables: boolean; pipelineVariables: boolean };
}

/**
 * A pending bridge creates its child pipeline (GitLab's CreateDownstreamPipelineService): the
 * child compiles the bridge's `trigger: include:` at the parent's commit. Without
 * `strategy: depend` the bridge succeeds once the child exists; with it, it follows the child.
 */
async function triggerChildPipeline(deps: CiDeps, bridge: Job, parent: Pipeline): Promise<void> {
  const trigger = (bridge.options as { trigger?: BridgeTrigger }).trigger;
  const fail = (reason: string) => setBridgeStatus(deps, bridge.id, "failed", reason);
  if (!trigger || trigger.include.length === 0 || trigger.include.some((i) => !("local" in i))) {
    return fail("downstream_pipeline_creation_failed");
  }
  const project = await deps.projects.getProject(parent.projectId, bridge.userId);
  if (!project) return fail("downstream_pipeline_creation_failed");
  const variables: PipelineVariable[] = [];
  if (trigger.forward.yamlVariables) {
    for (const [key, value] of Object.entries(bridge.variables as Record<string, string>)) variables.push({ key, value, variable_type: "env_var" });
  }
  if (trigger.forward.pipelineVariables) variables.push(...(parent.variables as unknown as PipelineVariable[]));
  const outcome = await createPipeline(deps, {
    project,
    ref: parent.ref,
    tag: parent.tag,
    sha: parent.sha,
    beforeSha: parent.beforeSha,
    source: "parent_pipeline",
    userId: bridge.userId,
    refProtected: parent.protected,
    variables,
    saveOnErrors: true,
    parent: { pipelineId: parent.id, jobId: bridge.id, yaml: stringify({ include: trigger.include }) },
  });
  if (!("created" in outcome) || outcome.created.yamlErrors) {
    if ("created" in outcome) await deps.prisma.job.update({ where: { id: bridge.id }, data: { downstreamPipelineId: outcome.created.id } });
    return fail("downstream_pipeline_creation_failed");
  }
  const child = outcome.created;
  await deps.prisma.job.update({ where: { id: bridge.id }, data: { downstreamPipelineId: child.id } });
  if (trigger.strategy === "depend") await mirrorChildStatus(deps, child);
  else await setBridgeStatus(deps, bridge.id, "success");
}

/** A `strategy: depend` bridge takes its child pipeline's status (running, then the outcome). */
async function mirrorChildStatus(deps: CiDeps, child: Pipeline): Promise<void> {
  if (!child.parentJobId) return;
  const bridge = await deps.prisma.job.findUnique({ where: { id: child.parentJobId } });
  const trigger = (bridge?.options as { trigger?: BridgeTrigger } | undefined)?.trigger;
  if (!bridge || trigger?.strategy !== "depend" || isComplete(bridge.status as JobStatus)) return;
  const status = child.status as JobStatus;
  if (isComplete(status)) return setBridgeStatus(deps, bridge.id, status);
  if (status === "running" && bridge.status !== "running") {
    await deps.prisma.job.update({ where: { id: bridge.id }, data: { status: "running", startedAt: new Date() } });
  }
}

/** Moves a bridge to a final status and reprocesses its pipeline. */
async function setBridgeStatus(deps: CiDeps, bridgeId: number, status: JobStatus, failureReason?: string): Promise<void> {
  const now = new Date();
  const bridge = await deps.prisma.job.update({ where: { id: bridgeId }, data: { status, failureReason: failureReason ?? null, finishedAt: now } });
  if (!bridge.startedAt) await deps.prisma.job.update({ where: { id: bridgeId }, data: { startedAt: now } });
  await processPipelineById(deps, bridge.pipelineId);
}
