import { forbidden } from "@quarry/grpc";
import type { JobUpdateResponse } from "@quarry/proto/types/ci/v1/JobUpdateResponse";
import type { UpdateJobRequest__Output } from "@quarry/proto/types/ci/v1/UpdateJobRequest";
import type { CiDeps } from "../deps.ts";
import { finishJob } from "../pipelines/finish.ts";
import { jobForRunnerToken, TOKEN_LIVE_STATUSES } from "../pipelines/job-token.ts";

const FINAL_STATES = ["success", "failed", "canceled"] as const;

/**
 * PUT /jobs/:id (GitLab's Ci::UpdateBuildStateService): `running` (or no state) is a keepalive;
 * success/failed/canceled finish the job. The answer carries the job's status, which tells the
 * runner when the job was canceled meanwhile. Repeating the final update is harmless.
 */
export const updateJob =
  (deps: CiDeps) =>
  async (req: UpdateJobRequest__Output): Promise<JobUpdateResponse> => {
    const jobId = Number(req.jobId);
    const job = await jobForRunnerToken(deps, jobId, req.token);
    const state = req.state || "running";
    if (!TOKEN_LIVE_STATUSES.includes(job.status)) {
      // A retried final update after the job finished: answer with what happened.
      if ((FINAL_STATES as readonly string[]).includes(state)) return { status: job.status, traceLength: job.traceLength, rangeMismatch: false };
      throw forbidden("403 Forbidden - Job is not running");
    }
    if (state === "running") {
      const touched = await deps.prisma.job.update({ where: { id: jobId }, data: { lastRunnerContactAt: new Date() } });
      return { status: touched.status, traceLength: touched.traceLength, rangeMismatch: false };
    }
    if (!(FINAL_STATES as readonly string[]).includes(state)) throw forbidden(`403 Forbidden - invalid state ${state}`);
    const finished = await finishJob(deps, jobId, {
      state: state as (typeof FINAL_STATES)[number],
      failureReason: req.failureReason,
      exitCode: req.exitCode ?? null,
    });
    return { status: finished.status, traceLength: finished.traceLength, rangeMismatch: false };
  };
