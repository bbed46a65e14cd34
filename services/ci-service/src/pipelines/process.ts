// Runs pipeline processing (src/processing) against the stored jobs and persists the outcome,
// then does what the new statuses call for: publish the status changes (events/publish.ts), wake
// runners, trigger child pipelines, update a parent's bridge (downstream.ts). GitLab's PipelineProcessWorker + AtomicProcessingService.
import type { CiDeps } from "../deps.ts";
import { publishStatusChanges } from "../events/publish.ts";
import type { Job, Pipeline, Prisma } from "../generated/prisma/client.ts";
import { isComplete, processPipeline, type JobStatus, type JobWhen, type ProcessableJob, type StatusChange } from "../processing/index.ts";
import { mirrorChildStatus, triggerChildPipeline } from "./downstream.ts";
import { lockPipeline } from "./lock.ts";

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

export { lockPipeline };

/** A pipeline's jobs, retried ones included, in creation order (as GitLab's services walk them). */
export const pipelineJobs = (tx: Tx, pipelineId: number): Promise<Job[]> => tx.job.findMany({ where: { pipelineId }, orderBy: { id: "asc" } });

/** Timestamps that go with a job entering `to`. */
export function jobTimestamps(to: JobStatus, now: Date): Prisma.JobUpdateManyMutationInput {
  if (to === "pending") return { queuedAt: now };
  if (isComplete(to)) return { finishedAt: now };
  return {};
}

/** Stores a pipeline's status derived from its jobs; returns it, with whether it changed. */
export async function updatePipelineStatus(
  tx: Tx,
  pipeline: Pipeline,
  status: JobStatus,
  warnings: boolean,
): Promise<{ pipeline: Pipeline; changed: boolean }> {
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
  await publishStatusChanges(deps, pipelineId);
  await startEnqueued(deps, outcome.pipeline, outcome.enqueued);
  if (outcome.changed && outcome.pipeline.parentJobId) await mirrorChildStatus(deps, outcome.pipeline, processPipelineById);
}

/** Stores job status changes; a job whose status moved on meanwhile keeps it. */
export async function applyStatusChanges(tx: Tx, changes: readonly StatusChange[], now = new Date()): Promise<void> {
  for (const change of changes) {
    await tx.job.updateMany({
      where: { id: change.id, status: change.from },
      data: { status: change.to, enqueueImmediately: false, ...jobTimestamps(change.to, now) },
    });
  }
}

/**
 * What jobs that just became pending call for: runners are woken for builds, bridges create
 * their child pipelines. Processing does this for the jobs it enqueues; a played job needs it too.
 */
export async function startEnqueued(deps: CiDeps, pipeline: Pipeline, enqueued: readonly Job[]): Promise<void> {
  if (enqueued.some((j) => j.type === "build")) deps.queue.notify();
  for (const bridge of enqueued.filter((j) => j.type === "bridge")) await triggerChildPipeline(deps, bridge, pipeline, processPipelineById);
}
