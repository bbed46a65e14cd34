import { forbidden } from "@quarry/grpc";
import type { AppendTraceRequest__Output } from "@quarry/proto/types/ci/v1/AppendTraceRequest";
import type { JobUpdateResponse } from "@quarry/proto/types/ci/v1/JobUpdateResponse";
import type { CiDeps } from "../deps.ts";
import { jobForRunnerToken, TOKEN_LIVE_STATUSES } from "../pipelines/job-token.ts";

/**
 * PATCH /jobs/:id/trace (GitLab's Ci::AppendBuildTraceService): bytes must start exactly where
 * the stored trace ends; otherwise nothing is stored and the caller learns the stored length
 * (HTTP 416 with `Range: 0-<length>`), so it can resend from there.
 */
export const appendTrace =
  (deps: CiDeps) =>
  async (req: AppendTraceRequest__Output): Promise<JobUpdateResponse> => {
    const jobId = Number(req.jobId);
    await jobForRunnerToken(deps, jobId, req.token);
    return deps.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ status: string; trace_length: number }[]>`
        SELECT status, trace_length FROM jobs WHERE id = ${jobId} FOR UPDATE`;
      if (!row || !TOKEN_LIVE_STATUSES.includes(row.status)) throw forbidden("403 Forbidden - Job is not running");
      if (Number(req.offset) !== row.trace_length) return { status: row.status, traceLength: row.trace_length, rangeMismatch: true };
      const now = new Date();
      if (req.data.length > 0) await tx.jobTraceChunk.create({ data: { jobId, offset: row.trace_length, data: new Uint8Array(req.data) } });
      const job = await tx.job.update({
        where: { id: jobId },
        data: { traceLength: row.trace_length + req.data.length, lastRunnerContactAt: now },
      });
      return { status: job.status, traceLength: job.traceLength, rangeMismatch: false };
    });
  };
