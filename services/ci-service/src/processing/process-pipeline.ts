import { compositeStatus } from "./composite-status.ts";
import { dagOrder } from "./dag-order.ts";
import { nextPipelineStatus, nextStageStatus } from "./pipeline-status.ts";
import { latestJobs, type ProcessableJob, type StatusChange } from "./processable.ts";
import { type JobStatus, type JobWhen, isComplete } from "./statuses.ts";

/**
 * One pass of GitLab's Ci::PipelineProcessing::AtomicProcessingService over a pipeline's jobs:
 * decides which `created` jobs may leave `created` now, and the resulting stage and pipeline
 * statuses. Callers run it again whenever a job's status changes (as GitLab's
 * PipelineProcessWorker does) and persist the changes.
 */

export interface StageStatus {
  stageIdx: number;
  /** The stage's status to store (see nextStageStatus). */
  status: JobStatus;
  /** Some job of the stage failed but was allowed to. */
  warnings: boolean;
}

export interface ProcessResult {
  /** `created` jobs moving to `pending`, `manual`, `scheduled` or `skipped`, in processing order. */
  changes: StatusChange[];
  stages: StageStatus[];
  /** The pipeline's status to store once the changes are applied (see nextPipelineStatus). */
  status: JobStatus;
  /** The pipeline passed with warnings (some job failed but was allowed to). */
  warnings: boolean;
}

/** The statuses stored before this pass; both default to `created` (a new pipeline). */
export interface StoredStatuses {
  pipeline?: JobStatus;
  /** By stage index. */
  stages?: Readonly<Record<number, JobStatus>>;
}

/** The statuses of a job's predecessors under which it runs (Ci::ProcessBuildService); otherwise it is skipped. */
export function validPreviousStatuses(when: JobWhen, dag: boolean): readonly JobStatus[] {
  switch (when) {
    case "on_success":
    case "manual":
    case "delayed":
      // A DAG job needs every needed job to have actually succeeded; a stage-based job also
      // runs after stages that were entirely skipped.
      return dag ? ["success"] : ["success", "skipped"];
    case "on_failure":
      return ["failed"];
    case "always":
      return ["success", "failed", "skipped"];
    default:
      return [];
  }
}

/** What a `created` job becomes once its predecessors are complete with `previous` status. */
export function nextStatus(job: ProcessableJob, previous: JobStatus): JobStatus {
  if (!validPreviousStatuses(job.when, job.needs !== null).includes(previous)) return "skipped";
  if (job.enqueueImmediately) return "pending";
  if (job.when === "delayed") return "scheduled";
  if (job.when === "manual") return "manual";
  return "pending";
}

export function processPipeline(jobs: readonly ProcessableJob[], stored: StoredStatuses = {}): ProcessResult {
  // Working copy of the pipeline's current (non-retried) jobs; statuses change as we go so that
  // later jobs see earlier decisions within the same pass.
  const current = latestJobs(jobs).map((j) => ({ ...j }));
  const byName = new Map(current.map((j) => [j.name, j]));
  const stageIdxs = [...new Set(current.map((j) => j.stageIdx))].sort((a, b) => a - b);
  const changes: StatusChange[] = [];
  const stages: StageStatus[] = [];

  const statusOrSuccess = (group: readonly ProcessableJob[], dag: boolean): JobStatus => compositeStatus(group, { dag }).status ?? "success";

  const previousStatus = (job: ProcessableJob): JobStatus =>
    job.needs === null
      ? statusOrSuccess(
          current.filter((j) => j.stageIdx < job.stageIdx),
          false,
        )
      : statusOrSuccess(
          job.needs.flatMap((n) => byName.get(n) ?? []),
          true,
        );

  for (const stageIdx of stageIdxs) {
    const inStage = current.filter((j) => j.stageIdx === stageIdx);
    for (const job of dagOrder(inStage.filter((j) => j.status === "created"))) {
      const previous = previousStatus(job);
      // Predecessors still running (or waiting for a play): the job stays created for now.
      if (!isComplete(previous)) continue;
      const to = nextStatus(job, previous);
      changes.push({ id: job.id, from: job.status, to });
      job.status = to;
    }
    const c = compositeStatus(inStage);
    const before = stored.stages?.[stageIdx] ?? "created";
    stages.push({ stageIdx, status: nextStageStatus(before, c.status ?? "success"), warnings: c.warnings });
  }

  const all = compositeStatus(current);
  return {
    changes,
    stages,
    status: nextPipelineStatus(stored.pipeline ?? "created", all.status ?? "success"),
    warnings: all.warnings,
  };
}
