import { compositeStatus } from "./composite-status.ts";
import { applyChanges, latestJobs, type StatusChange } from "./processable.ts";
import { type JobStatus, fireEvent, isCancelable } from "./statuses.ts";

export interface CancelableJob {
  id: number;
  status: JobStatus;
  allowFailure: boolean;
  retried: boolean;
  /** The runner running this job cancels gracefully (runs `after_script`): it goes through `canceling`. */
  supportsCanceling?: boolean;
}

export interface CancelResult {
  /** False when nothing in the pipeline could be canceled (GitLab: "Pipeline is not cancelable"). */
  cancelable: boolean;
  changes: StatusChange[];
  /** The pipeline's status once the changes are applied (`canceling` while runners finish). */
  status: JobStatus;
}

/**
 * GitLab's Ci::CancelPipelineService (without child pipelines): every cancelable job
 * (created, waiting_for_resource, preparing, pending, running, scheduled) gets the `cancel`
 * event. Manual jobs are left as they are, so they can still be played later.
 */
export function cancelPipeline(jobs: readonly CancelableJob[]): CancelResult {
  const changes: StatusChange[] = [];
  for (const job of jobs) {
    if (!isCancelable(job.status)) continue;
    const to = fireEvent(job.status, "cancel", { supportsCanceling: job.supportsCanceling ?? false });
    if (to) changes.push({ id: job.id, from: job.status, to });
  }
  const after = latestJobs(applyChanges(jobs, changes));
  return { cancelable: changes.length > 0, changes, status: compositeStatus(after).status ?? "success" };
}
