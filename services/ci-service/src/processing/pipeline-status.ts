import type { JobStatus } from "./statuses.ts";

/**
 * How a pipeline's (or stage's) stored status follows the composite status of its jobs
 * (GitLab's Ci::Pipeline#set_status and Ci::Stage#set_status with their state machines).
 * A computed `created` never changes the stored status, and a finished pipeline that gets
 * pending jobs again (a retry) becomes `running`, not `pending`.
 */
export function nextPipelineStatus(current: JobStatus, computed: JobStatus): JobStatus {
  switch (computed) {
    case "created":
      return current;
    case "pending":
      if (["success", "failed", "canceling", "canceled"].includes(current)) return "running";
      if (current === "running") return "running";
      return "pending";
    case "canceling":
      // start_cancel: from anything but canceling and canceled.
      return current === "canceled" ? current : "canceling";
    default:
      return computed;
  }
}

/** Ci::Stage#set_status: every event moves to its status from anywhere; `created` keeps the old one. */
export function nextStageStatus(current: JobStatus, computed: JobStatus): JobStatus {
  return computed === "created" ? current : computed;
}
