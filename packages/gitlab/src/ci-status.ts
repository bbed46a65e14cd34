/**
 * Job and pipeline statuses (Ci::HasStatus) and GitLab's groupings of them. A pipeline's status
 * is one of the same values as a job's.
 */

/** Ci::HasStatus::AVAILABLE_STATUSES: job `scope` and pipeline `status` values. */
export const JOB_STATUSES = [
  "created",
  "waiting_for_resource",
  "preparing",
  "pending",
  "running",
  "success",
  "failed",
  "canceling",
  "canceled",
  "skipped",
  "manual",
  "scheduled",
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Pipelines take the same statuses as jobs. */
export const PIPELINE_STATUSES = JOB_STATUSES;
export type PipelineStatus = JobStatus;

export const ACTIVE_STATUSES: readonly JobStatus[] = ["waiting_for_resource", "preparing", "pending", "running"];
export const COMPLETED_STATUSES: readonly JobStatus[] = ["success", "failed", "canceled", "skipped"];
export const BLOCKED_STATUSES: readonly JobStatus[] = ["manual", "scheduled"];
export const STARTED_STATUSES: readonly JobStatus[] = ["running", "success", "failed"];
/** Completed or blocked: nothing will happen to the job without a user or a retry. */
export const STOPPED_STATUSES: readonly JobStatus[] = [...COMPLETED_STATUSES, ...BLOCKED_STATUSES];
/** GitLab's ALIVE_STATUSES: neither completed nor blocked. */
export const ALIVE_STATUSES: readonly JobStatus[] = ["created", "waiting_for_resource", "preparing", "pending", "running", "canceling"];

export const isJobStatus = (value: string): value is JobStatus => (JOB_STATUSES as readonly string[]).includes(value);
