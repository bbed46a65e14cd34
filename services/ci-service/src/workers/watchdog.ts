// Jobs nobody will finish (GitLab's Ci::StuckBuilds::DropRunningService, DropCancelingService and
// DropPendingService, and the server-side half of the job timeout): runners that went silent,
// jobs running past their timeout, and jobs no runner took for a day.
import type { CiDeps } from "../deps.ts";
import type { Job } from "../generated/prisma/client.ts";
import { finishJobIf, type Verdict } from "../pipelines/finish.ts";
import { DEFAULT_TIMEOUT_SECONDS } from "../pipelines/payload.ts";

/** The runner enforces the timeout itself and reports job_execution_timeout; this is its margin. */
export const TIMEOUT_GRACE_SECONDS = 5 * 60;
/** GitLab's BUILD_PENDING_OUTDATED_TIMEOUT. */
export const PENDING_OUTDATED_SECONDS = 24 * 60 * 60;
/** Jobs looked at per category and run; the rest wait for the next run. */
const BATCH = 500;

export interface WatchdogRun {
  /** Running jobs failed (canceling ones canceled) because their runner stopped reporting. */
  silent: number[];
  /** Running jobs failed for running past their timeout. */
  timedOut: number[];
  /** Pending jobs failed because no runner took them for a day. */
  outdated: number[];
}

const secondsBefore = (now: Date, seconds: number) => new Date(now.getTime() - seconds * 1000);

/**
 * The watchdog of one replica. Several may run at once: a job is finished only by the run that
 * locks its row (SKIP LOCKED) and still finds it in the state that condemned it, so every job is
 * handled exactly once and a runner that reported meanwhile keeps its job.
 */
export function stuckJobWatchdog(deps: CiDeps) {
  const { prisma } = deps;

  async function finishAll(ids: readonly number[], verdict: Verdict, applies: (job: Job) => boolean): Promise<number[]> {
    const done: number[] = [];
    for (const id of ids) {
      if (await finishJobIf(deps, id, verdict, { skipLocked: true, applies })) done.push(id);
    }
    return done;
  }

  async function silentJobs(now: Date): Promise<number[]> {
    const cutoff = secondsBefore(now, deps.settings.runnerSilenceTimeoutSeconds);
    const lastContact = (j: Job) => j.lastRunnerContactAt ?? j.startedAt ?? j.updatedAt;
    const rows = await prisma.$queryRaw<{ id: number }[]>`
      SELECT id FROM jobs
      WHERE type = 'build' AND status IN ('running', 'canceling')
        AND COALESCE(last_runner_contact_at, started_at, updated_at) < ${cutoff}
      ORDER BY id LIMIT ${BATCH}`;
    return finishAll(
      rows.map((r) => r.id),
      { state: "failed", failureReason: "stuck_or_timeout_failure" },
      (j) => (j.status === "running" || j.status === "canceling") && lastContact(j) < cutoff,
    );
  }

  async function timedOutJobs(now: Date): Promise<number[]> {
    // The timeout the runner was given (payload.ts effectiveTimeout): the job's, capped by the runner's maximum.
    const rows = await prisma.$queryRaw<{ id: number }[]>`
      SELECT j.id FROM jobs j LEFT JOIN runners r ON r.id = j.runner_id
      WHERE j.type = 'build' AND j.status = 'running'
        AND j.started_at + make_interval(secs => LEAST(COALESCE(j.timeout, ${DEFAULT_TIMEOUT_SECONDS}), COALESCE(NULLIF(r.maximum_timeout, 0), 2147483647)) + ${TIMEOUT_GRACE_SECONDS}) < ${now}
      ORDER BY j.id LIMIT ${BATCH}`;
    // A job never runs twice (a retry is a new job), so one still running is still past its deadline.
    return finishAll(
      rows.map((r) => r.id),
      { state: "failed", failureReason: "job_execution_timeout" },
      (j) => j.status === "running",
    );
  }

  async function outdatedPendingJobs(now: Date): Promise<number[]> {
    const cutoff = secondsBefore(now, PENDING_OUTDATED_SECONDS);
    const rows = await prisma.$queryRaw<{ id: number }[]>`
      SELECT id FROM jobs
      WHERE type = 'build' AND status = 'pending' AND runner_id IS NULL
        AND COALESCE(queued_at, created_at) < ${cutoff}
      ORDER BY id LIMIT ${BATCH}`;
    return finishAll(
      rows.map((r) => r.id),
      { state: "failed", failureReason: "stuck_or_timeout_failure" },
      (j) => j.status === "pending" && j.runnerId === null && (j.queuedAt ?? j.createdAt) < cutoff,
    );
  }

  return {
    name: "stuck-job watchdog",
    async runOnce(): Promise<WatchdogRun> {
      const now = new Date();
      const silent = await silentJobs(now);
      const timedOut = await timedOutJobs(now);
      const outdated = await outdatedPendingJobs(now);
      return { silent, timedOut, outdated };
    },
  };
}
