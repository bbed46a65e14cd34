import { type JobStatus, IGNORED_STATUSES, PASSED_WITH_WARNINGS_STATUSES } from "./statuses.ts";

/**
 * The status of a group of jobs (a stage, a pipeline, or the jobs a job waits for), ported from
 * GitLab's Gitlab::Ci::Status::Composite. Each job contributes one symbol to a set:
 * an allowed failure (`failed`/`canceled` with allow_failure) is `success_with_warnings`,
 * an allowed-to-fail `manual` job (a non-blocking manual job) is `ignored`, anything else its
 * own status. The rules below are order dependent, exactly as in GitLab.
 */

export interface StatusInput {
  status: JobStatus;
  allowFailure: boolean;
}

export interface CompositeOptions {
  /**
   * For a DAG job's `needs`: any skipped or ignored (unplayed optional manual) need makes the
   * result `skipped`, so an `on_success` job that needs it is skipped too.
   */
  dag?: boolean;
}

export interface CompositeResult {
  /** null when there are no jobs (GitLab's callers then treat it as `success`). */
  status: JobStatus | null;
  /** Some job failed (or was canceled) but was allowed to: shown as "passed with warnings". */
  warnings: boolean;
}

type Member = JobStatus | "success_with_warnings" | "ignored";

export function compositeStatus(jobs: readonly StatusInput[], options: CompositeOptions = {}): CompositeResult {
  const set = new Set<Member>();
  for (const job of jobs) {
    if (job.allowFailure && PASSED_WITH_WARNINGS_STATUSES.includes(job.status)) set.add("success_with_warnings");
    else if (job.allowFailure && IGNORED_STATUSES.includes(job.status)) set.add("ignored");
    else set.add(job.status);
  }
  return { status: statusOf(set, options.dag ?? false), warnings: set.has("success_with_warnings") };
}

function statusOf(set: ReadonlySet<Member>, dag: boolean): JobStatus | null {
  if (set.size === 0) return null;
  const anyOf = (...names: Member[]) => names.some((n) => set.has(n));
  // Every member of the set is one of `names` (and the set is not empty).
  const onlyOf = (...names: Member[]) => names.filter((n) => set.has(n)).length === set.size;

  if (dag && anyOf("skipped", "ignored")) return "skipped";
  if (onlyOf("skipped", "ignored")) return "skipped";
  if (onlyOf("success", "skipped", "success_with_warnings", "ignored")) return "success";
  if (onlyOf("created", "success_with_warnings", "ignored")) return "created";
  if (onlyOf("preparing", "success_with_warnings", "ignored")) return "preparing";
  if (onlyOf("canceled", "success", "skipped", "success_with_warnings", "ignored")) return "canceled";
  if (onlyOf("pending", "created", "skipped", "success_with_warnings", "ignored")) return "pending";
  if (anyOf("running", "pending")) return "running";
  if (anyOf("waiting_for_resource")) return "waiting_for_resource";
  if (anyOf("manual")) return "manual";
  if (anyOf("scheduled")) return "scheduled";
  if (anyOf("preparing")) return "preparing";
  if (anyOf("created")) return "running";
  if (anyOf("canceling")) return "canceling";
  return "failed";
}
