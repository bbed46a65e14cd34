// A runner's verdict on a job (GitLab's Ci::UpdateBuildStateService + Ci::Build state machine
// callbacks): store the outcome, archive the trace, read coverage, retry automatically when
// `retry:` says so, then process the pipeline.
import type { CiDeps } from "../deps.ts";
import { createEnvironmentAndDeployment } from "../environments/environments.ts";
import { Prisma, type Job } from "../generated/prisma/client.ts";
import { fireEvent, isFailureReason, type FailureReason, type JobStatus } from "../processing/index.ts";
import { processPipelineById } from "./process.ts";
import { archiveTrace } from "./trace.ts";

export interface Verdict {
  state: "success" | "failed" | "canceled";
  failureReason?: string;
  exitCode?: number | null;
}

interface RetryOptions {
  max: number;
  when: string[];
  exitCodes: number[];
}

/** GitLab's Ci::Build#retry_on_reason_or_always? and exit-code check. */
export function shouldAutoRetry(retry: RetryOptions | null | undefined, retryCount: number, reason: FailureReason, exitCode: number | null): boolean {
  if (!retry || retryCount >= retry.max) return false;
  if (retry.exitCodes.length > 0 && (exitCode === null || !retry.exitCodes.includes(exitCode))) return false;
  const when = retry.when.length ? retry.when : ["always"];
  return when.includes("always") || when.includes(reason);
}

/** Finishes a job that a runner (or the watchdog) reports on; a no-op for jobs already finished. */
export async function finishJob(deps: CiDeps, jobId: number, verdict: Verdict): Promise<Job> {
  const finished = await finishJobIf(deps, jobId, verdict, { skipLocked: false, applies: () => true });
  return finished ?? deps.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
}

/** When finishJobIf may finish a job. */
export interface FinishGuard {
  /** Leave the job alone while another transaction holds its row (another replica, a trace append). */
  skipLocked: boolean;
  /** Checked on the locked row: the reason to finish the job still holds. */
  applies(job: Job): boolean;
}

/**
 * finishJob for callers that decided from an earlier read (the watchdog): the job is finished
 * only if `guard` still holds once its row is locked. Returns the finished job, or null when
 * this call did not finish it, so concurrent callers finish each job exactly once.
 */
export async function finishJobIf(deps: CiDeps, jobId: number, verdict: Verdict, guard: FinishGuard): Promise<Job | null> {
  const now = new Date();
  const finished = await deps.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string }[]>`
      SELECT status FROM jobs WHERE id = ${jobId} FOR UPDATE ${guard.skipLocked ? Prisma.sql`SKIP LOCKED` : Prisma.empty}`;
    if (!row) return null;
    const job = await tx.job.findUniqueOrThrow({ where: { id: jobId } });
    if (!["running", "canceling", "pending"].includes(job.status) || !guard.applies(job)) return null;
    const from = job.status as JobStatus;
    const to =
      verdict.state === "success"
        ? fireEvent(from, "success")
        : verdict.state === "canceled"
          ? (fireEvent(from, "cancel") ?? fireEvent(from, "force_cancel"))
          : fireEvent(from, "drop");
    if (!to) return null;
    const exitCode = verdict.exitCode ?? null;
    const reason: FailureReason =
      to === "failed" ? (verdict.failureReason && isFailureReason(verdict.failureReason) ? verdict.failureReason : "unknown_failure") : "unknown_failure";
    const data: Prisma.JobUpdateInput = {
      status: to,
      finishedAt: now,
      exitCode,
      failureReason: to === "failed" ? reason : null,
      lastRunnerContactAt: now,
    };
    // `allow_failure: exit_codes`: the job is allowed to fail with exactly these codes.
    if (to === "failed" && exitCode !== null && job.allowFailureExitCodes.includes(exitCode)) data.allowFailure = true;
    const updated = await tx.job.update({ where: { id: jobId }, data });
    const retry = (job.options as { retry?: RetryOptions }).retry;
    if (to === "failed" && shouldAutoRetry(retry, job.retryCount, reason, exitCode)) {
      await tx.job.update({ where: { id: jobId }, data: { retried: true } });
      await createEnvironmentAndDeployment(
        tx,
        await tx.job.create({ data: cloneForRetry(job, { retryCount: job.retryCount + 1, enqueueImmediately: false }) }),
      );
    }
    return updated;
  });
  if (!finished) return null;
  if (finished.runnerId) await archiveTrace(deps, finished);
  await processPipelineById(deps, finished.pipelineId);
  return deps.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
}

/** A new `created` job with the definition of `job` (GitLab's Ci::Build#clone). */
export function cloneForRetry(job: Job, extra: { retryCount: number; enqueueImmediately: boolean; userId?: number }): Prisma.JobUncheckedCreateInput {
  return {
    pipelineId: job.pipelineId,
    projectId: job.projectId,
    type: job.type,
    name: job.name,
    stage: job.stage,
    stageIdx: job.stageIdx,
    when: job.when,
    allowFailure: job.allowFailure,
    allowFailureExitCodes: job.allowFailureExitCodes,
    needs: job.needs ?? undefined,
    options: job.options as Prisma.InputJsonValue,
    variables: job.variables as Prisma.InputJsonValue,
    tagList: job.tagList,
    timeout: job.timeout,
    userId: extra.userId ?? job.userId,
    retryOfId: job.id,
    retryCount: extra.retryCount,
    enqueueImmediately: extra.enqueueImmediately,
  };
}
