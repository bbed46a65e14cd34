import { latestJobs, type ProcessableJob, type StatusChange } from "./processable.ts";
import { fireEvent, isPlayable, isRetryable } from "./statuses.ts";

/**
 * Planning of GitLab's retry and play services. A retry never changes the old job's status:
 * it is cloned into a new job of the same name that starts `created` (the old one becomes
 * `retried`), then pipeline processing decides what the clone becomes.
 */

export interface RetryPlan {
  /** Jobs to clone into new `created` jobs; each original is marked `retried`. */
  clones: { retryOf: number; enqueueImmediately: boolean }[];
  /** Changes to existing jobs: a played job → `pending`, skipped dependents → `created`. */
  changes: StatusChange[];
}

/**
 * GitLab's Ci::ResetSkippedJobsService: after `jobs` start again (played or retried), skipped
 * jobs that may now run are reset to `created` (event `process`): every skipped job in a later
 * stage than the earliest of them, and every job that needs them, directly or transitively.
 */
export function resetSkippedJobs(all: readonly ProcessableJob[], fromIds: readonly number[]): StatusChange[] {
  const current = latestJobs(all);
  const from = current.filter((j) => fromIds.includes(j.id));
  if (from.length === 0) return [];
  const minStage = Math.min(...from.map((j) => j.stageIdx));

  // Needs descendants, including the given jobs themselves.
  const names = new Set(from.map((j) => j.name));
  for (let grew = true; grew; ) {
    grew = false;
    for (const j of current) {
      if (!names.has(j.name) && (j.needs ?? []).some((n) => names.has(n))) {
        names.add(j.name);
        grew = true;
      }
    }
  }

  return current
    .filter((j) => j.status === "skipped" && (j.stageIdx > minStage || names.has(j.name)))
    .map((j) => ({ id: j.id, from: j.status, to: fireEvent(j.status, "process")! }));
}

/**
 * GitLab's Ci::RetryJobService#execute: null when the job is not retryable (GitLab answers
 * "Job is not retryable"). A retried manual job is enqueued at once instead of waiting for
 * another play.
 */
export function retryJob(jobs: readonly ProcessableJob[], jobId: number): RetryPlan | null {
  const job = jobs.find((j) => j.id === jobId);
  if (!job || !isRetryable(job)) return null;
  return {
    clones: [{ retryOf: job.id, enqueueImmediately: job.when === "manual" }],
    changes: resetSkippedJobs(jobs, [job.id]),
  };
}

/**
 * GitLab's Ci::PlayBuildService: a manual job waiting for its play is enqueued (`pending`)
 * and its skipped dependents reset; a finished manual job is retried instead. Null when the
 * job is not playable (GitLab: "Unplayable Job").
 */
export function playJob(jobs: readonly ProcessableJob[], jobId: number): RetryPlan | null {
  const job = jobs.find((j) => j.id === jobId);
  if (!job || !isPlayable(job)) return null;
  const to = fireEvent(job.status, "enqueue");
  if (!to) return retryJob(jobs, jobId);
  const played: ProcessableJob[] = jobs.map((j) => (j.id === jobId ? { ...j, status: to } : j));
  return { clones: [], changes: [{ id: job.id, from: job.status, to }, ...resetSkippedJobs(played, [job.id])] };
}

/**
 * GitLab's Ci::RetryPipelineService: clones every failed or canceled (or canceling) current
 * job, and resets every skipped current job to `created`. Clones are not enqueued
 * immediately: a retried manual job becomes `manual` again.
 */
export function retryPipeline(jobs: readonly ProcessableJob[]): RetryPlan {
  const current = latestJobs(jobs);
  const clones = current
    .filter((j) => ["failed", "canceled", "canceling"].includes(j.status) && isRetryable(j))
    .map((j) => ({ retryOf: j.id, enqueueImmediately: false }));
  const changes = current.filter((j) => j.status === "skipped").map((j) => ({ id: j.id, from: j.status, to: fireEvent(j.status, "process")! }));
  return { clones, changes };
}

/** Pipeline#retryable?: something in it can be retried. */
export const isPipelineRetryable = (jobs: readonly ProcessableJob[]): boolean => retryPipeline(jobs).clones.length > 0;

/**
 * Applies a plan to a job list the way the persistence layer must: originals become `retried`,
 * clones are appended as `created` jobs with new ids, and the changes are applied.
 */
export function applyRetryPlan(jobs: readonly ProcessableJob[], plan: RetryPlan, newId: (original: ProcessableJob) => number): ProcessableJob[] {
  const to = new Map(plan.changes.map((c) => [c.id, c.to]));
  const cloneOf = new Map(plan.clones.map((c) => [c.retryOf, c]));
  const out: ProcessableJob[] = jobs.map((j) => ({
    ...j,
    status: to.get(j.id) ?? j.status,
    retried: j.retried || cloneOf.has(j.id),
  }));
  for (const j of jobs) {
    const clone = cloneOf.get(j.id);
    if (clone) {
      out.push({ ...j, id: newId(j), status: "created", retried: false, enqueueImmediately: clone.enqueueImmediately });
    }
  }
  return out;
}
