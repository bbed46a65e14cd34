/**
 * Job statuses and the job state machine, as GitLab defines them (Ci::HasStatus, CommitStatus,
 * Ci::Processable, Ci::Build). Pure data and predicates: callers persist the result.
 */

import { ACTIVE_STATUSES, ALIVE_STATUSES, BLOCKED_STATUSES, COMPLETED_STATUSES, STOPPED_STATUSES, type JobStatus } from "@quarry/gitlab";

export type { JobStatus };

/** `when` values of a job (`never` jobs are normally not created at all; if they are, they are skipped). */
export const WHEN_VALUES = ["on_success", "on_failure", "always", "manual", "never", "delayed"] as const;
export type JobWhen = (typeof WHEN_VALUES)[number];

/** What canceling a pipeline touches. `canceling` is already on its way; `manual` jobs are left alone. */
export const CANCELABLE_STATUSES: readonly JobStatus[] = ["created", "waiting_for_resource", "preparing", "pending", "running", "scheduled"];
/** A job in one of these may be retried (a new job is created; the old one becomes `retried`). */
export const RETRYABLE_STATUSES: readonly JobStatus[] = ["success", "failed", "canceled", "canceling"];
/** An allowed failure in one of these counts as "success with warnings". */
export const PASSED_WITH_WARNINGS_STATUSES: readonly JobStatus[] = ["failed", "canceled"];
/** An allowed-to-fail job in one of these is ignored by composite status (a non-blocking manual job). */
export const IGNORED_STATUSES: readonly JobStatus[] = ["manual"];
/** Statuses in which a runner is executing the job. */
export const EXECUTING_STATUSES: readonly JobStatus[] = ["running", "canceling"];

export const isActive = (s: JobStatus): boolean => ACTIVE_STATUSES.includes(s);
export const isComplete = (s: JobStatus): boolean => COMPLETED_STATUSES.includes(s);
export const isBlocked = (s: JobStatus): boolean => BLOCKED_STATUSES.includes(s);
export const isStopped = (s: JobStatus): boolean => STOPPED_STATUSES.includes(s);
export const isAlive = (s: JobStatus): boolean => ALIVE_STATUSES.includes(s);
export const isCancelable = (s: JobStatus): boolean => CANCELABLE_STATUSES.includes(s);
export const isExecuting = (s: JobStatus): boolean => EXECUTING_STATUSES.includes(s);

/** Ci::Processable#retryable?: finished (or being canceled), not already retried, not archived. */
export function isRetryable(job: { status: JobStatus; retried: boolean; archived?: boolean }): boolean {
  return !job.retried && !job.archived && RETRYABLE_STATUSES.includes(job.status);
}

/** Ci::Build#playable?: a `when: manual` job that waits for its play, or a finished one (play = retry). */
export function isPlayable(job: { status: JobStatus; when: JobWhen; retried: boolean; archived?: boolean }): boolean {
  return job.when === "manual" && !job.archived && (job.status === "manual" || isRetryable(job));
}

/** A failure that counts as success with warnings (CommitStatus#failed_but_allowed?). */
export const isFailedButAllowed = (job: { status: JobStatus; allowFailure: boolean }): boolean =>
  job.allowFailure && PASSED_WITH_WARNINGS_STATUSES.includes(job.status);

/**
 * State machine events of a job. Each lists its transitions in priority order, like the
 * `state_machines` gem: the first transition whose `from` matches (and whose guard holds) wins.
 */
export const JOB_EVENTS = {
  /** Processing found the job may run (or a manual job was played, or a retried job re-enqueued). */
  enqueue: [
    { from: ["created", "skipped", "manual", "scheduled"], to: "waiting_for_resource", if: "resourceGroup" },
    { from: ["created", "skipped", "manual", "scheduled"], to: "preparing", if: "unmetPrerequisites" },
    { from: ["created", "skipped", "manual", "scheduled"], to: "pending" },
  ],
  /** A delayed job's time came. */
  enqueue_scheduled: [
    { from: ["scheduled"], to: "waiting_for_resource", if: "resourceGroup" },
    { from: ["scheduled"], to: "preparing", if: "unmetPrerequisites" },
    { from: ["scheduled"], to: "pending" },
  ],
  /** The resource group granted the resource. */
  enqueue_waiting_for_resource: [
    { from: ["waiting_for_resource"], to: "preparing", if: "unmetPrerequisites" },
    { from: ["waiting_for_resource"], to: "pending" },
  ],
  /** Prerequisites (e.g. a Kubernetes namespace) are ready. */
  enqueue_preparing: [{ from: ["preparing"], to: "pending" }],
  /** Processing found a `when: manual` job may be played. */
  actionize: [{ from: ["created"], to: "manual" }],
  /** Processing found a `when: delayed` job may start after its delay. */
  schedule: [{ from: ["created"], to: "scheduled" }],
  /** A delayed job's timer was stopped: it becomes a manual job. */
  unschedule: [{ from: ["scheduled"], to: "manual" }],
  /** Reset for reprocessing (pipeline retry, or a needed job was played/retried). */
  process: [{ from: ["skipped", "manual"], to: "created" }],
  /** A runner picked the job. */
  run: [{ from: ["pending"], to: "running" }],
  /** Processing found the job must not run. */
  skip: [{ from: ["created", "waiting_for_resource", "preparing", "pending"], to: "skipped" }],
  /** The job failed; a job being canceled ends canceled whatever the runner reports. */
  drop: [
    { from: ["canceling"], to: "canceled" },
    {
      from: ["created", "waiting_for_resource", "preparing", "pending", "running", "manual", "scheduled"],
      to: "failed",
    },
  ],
  success: [
    { from: ["canceling"], to: "canceled" },
    { from: ["created", "waiting_for_resource", "preparing", "pending", "running"], to: "success" },
  ],
  /** A running job goes through `canceling` only when its runner can run `after_script` on cancel. */
  cancel: [
    { from: ["running"], to: "canceling", if: "supportsCanceling" },
    { from: [...CANCELABLE_STATUSES, "manual"], to: "canceled" },
  ],
  /** Give up waiting for the runner to finish canceling. */
  force_cancel: [{ from: ["canceling"], to: "canceled" }],
} as const satisfies Record<string, readonly { from: readonly JobStatus[]; to: JobStatus; if?: string }[]>;

export type JobEvent = keyof typeof JOB_EVENTS;

/** The guards some transitions depend on; all false unless given. */
export interface TransitionConditions {
  /** The job belongs to a resource group (`resource_group:`). */
  resourceGroup?: boolean;
  /** The job has unmet prerequisites and must prepare first. */
  unmetPrerequisites?: boolean;
  /** The job's runner supports graceful cancel (`canceling` while `after_script` runs). */
  supportsCanceling?: boolean;
}

/** The status a job in `from` reaches on `event`, or null when the event does not apply. */
export function fireEvent(from: JobStatus, event: JobEvent, conditions: TransitionConditions = {}): JobStatus | null {
  for (const t of JOB_EVENTS[event] as readonly { from: readonly JobStatus[]; to: JobStatus; if?: string }[]) {
    if (!t.from.includes(from)) continue;
    if (t.if && !conditions[t.if as keyof TransitionConditions]) continue;
    return t.to;
  }
  return null;
}

/** Whether some event (under some conditions) moves a job from `from` to `to`. */
export function canTransition(from: JobStatus, to: JobStatus): boolean {
  if (from === to) return false;
  return Object.values(JOB_EVENTS).some((ts) =>
    (ts as readonly { from: readonly JobStatus[]; to: JobStatus }[]).some((t) => t.to === to && t.from.includes(from)),
  );
}

/**
 * `failure_reason` values of a failed job, with GitLab's stored enum codes
 * (Enums::Ci::CommitStatus.failure_reasons; `unknown_failure` is stored as NULL).
 */
export const FAILURE_REASON_CODES = {
  unknown_failure: null,
  script_failure: 1,
  api_failure: 2,
  stuck_or_timeout_failure: 3,
  runner_system_failure: 4,
  missing_dependency_failure: 5,
  runner_unsupported: 6,
  stale_schedule: 7,
  job_execution_timeout: 8,
  archived_failure: 9,
  unmet_prerequisites: 10,
  scheduler_failure: 11,
  data_integrity_failure: 12,
  forward_deployment_failure: 13,
  user_blocked: 14,
  project_deleted: 15,
  ci_quota_exceeded: 16,
  pipeline_loop_detected: 17,
  no_matching_runner: 18,
  trace_size_exceeded: 19,
  builds_disabled: 20,
  environment_creation_failure: 21,
  deployment_rejected: 22,
  failed_outdated_deployment_job: 23,
  protected_environment_failure: 1000,
  insufficient_bridge_permissions: 1001,
  downstream_bridge_project_not_found: 1002,
  invalid_bridge_trigger: 1003,
  upstream_bridge_project_not_found: 1004,
  insufficient_upstream_permissions: 1005,
  bridge_pipeline_is_child_pipeline: 1006,
  downstream_pipeline_creation_failed: 1007,
  secrets_provider_not_found: 1008,
  reached_max_descendant_pipelines_depth: 1009,
  ip_restriction_failure: 1010,
  reached_max_pipeline_hierarchy_size: 1011,
  reached_downstream_pipeline_trigger_rate_limit: 1012,
} as const;
export type FailureReason = keyof typeof FAILURE_REASON_CODES;
export const FAILURE_REASONS = Object.keys(FAILURE_REASON_CODES) as FailureReason[];

export const isFailureReason = (value: string): value is FailureReason => Object.hasOwn(FAILURE_REASON_CODES, value);

/** Reads a stored code back (NULL and unknown codes read as `unknown_failure`, as in GitLab). */
export function failureReasonFromCode(code: number | null): FailureReason {
  const found = FAILURE_REASONS.find((r) => FAILURE_REASON_CODES[r] === code);
  return found ?? "unknown_failure";
}

/** Failures a retry cannot fix: GitLab's CommitStatus#recoverable? is false for these. */
export const UNRECOVERABLE_FAILURE_REASONS: readonly FailureReason[] = [
  "script_failure",
  "missing_dependency_failure",
  "archived_failure",
  "scheduler_failure",
  "data_integrity_failure",
];
