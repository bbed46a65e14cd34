import { forbidden } from "@quarry/grpc";
import type { Job } from "@quarry/proto/types/ci/v1/Job";
import type { JobRequest__Output } from "@quarry/proto/types/ci/v1/JobRequest";
import type { CiDeps } from "../deps.ts";
import { lockPipeline, pipelineJobs, processPipelineById, toProcessable } from "../pipelines/process.ts";
import { persistRetryPlan } from "../pipelines/retry.ts";
import { retryJob as planRetry } from "../processing/index.ts";
import { currentJobMessage, findJob } from "./actions.ts";

/**
 * POST /projects/:id/jobs/:job_id/retry (GitLab's Ci::RetryJobService): the job (a build or a
 * bridge) is cloned into a new job and becomes `retried`; skipped jobs after it are reset.
 * Answers the new job; 403 "Job is not retryable" for a job that is not finished or already retried.
 */
export const retryJob =
  (deps: CiDeps) =>
  async (req: JobRequest__Output): Promise<Job> => {
    const job = await findJob(deps, Number(req.projectId), Number(req.jobId));
    const cloneId = await deps.prisma.$transaction(async (tx) => {
      await lockPipeline(tx, job.pipelineId);
      const jobs = await pipelineJobs(tx, job.pipelineId);
      const plan = planRetry(jobs.map(toProcessable), job.id);
      if (!plan) throw forbidden("403 Forbidden - Job is not retryable");
      const clones = await persistRetryPlan(tx, jobs, plan, Number(req.userId));
      return clones.get(job.id)!.id;
    });
    await processPipelineById(deps, job.pipelineId);
    return currentJobMessage(deps, cloneId);
  };
