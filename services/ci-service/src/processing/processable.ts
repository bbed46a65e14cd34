import type { JobStatus, JobWhen } from "./statuses.ts";

/** What pipeline processing needs to know of one job (a build or a trigger job) of a pipeline. */
export interface ProcessableJob {
  id: number;
  /** Unique among the pipeline's non-retried jobs; `needs` refer to jobs by name. */
  name: string;
  /** Position of the job's stage in the pipeline (0-based, in `stages:` order). */
  stageIdx: number;
  status: JobStatus;
  when: JobWhen;
  /**
   * As stored on the job. The config layer sets it to true for `when: manual` jobs unless the
   * YAML says otherwise (GitLab's default), which is what makes a manual job non-blocking.
   */
  allowFailure: boolean;
  /** Names of the jobs this one needs; null = stage-based (waits for all earlier stages). `[]` = starts at once. */
  needs: readonly string[] | null;
  /** Replaced by a newer job of the same name (a retry); ignored by processing and statuses. */
  retried: boolean;
  /** A retried manual job that should not wait for a play again (GitLab's enqueue_immediately). */
  enqueueImmediately?: boolean;
}

/** One status change to persist. */
export interface StatusChange {
  id: number;
  from: JobStatus;
  to: JobStatus;
}

/** The jobs that count: GitLab's `latest` scope (not retried). */
export const latestJobs = <T extends { retried: boolean }>(jobs: readonly T[]): T[] => jobs.filter((j) => !j.retried);

/** Applies changes to a job list (for callers that chain planning steps, and for tests). */
export function applyChanges<T extends { id: number; status: JobStatus }>(jobs: readonly T[], changes: readonly StatusChange[]): T[] {
  const to = new Map(changes.map((c) => [c.id, c.to]));
  return jobs.map((j) => (to.has(j.id) ? { ...j, status: to.get(j.id)! } : j));
}
