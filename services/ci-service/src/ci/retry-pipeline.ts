import type { Pipeline } from "@quarry/proto/types/ci/v1/Pipeline";
import type { PipelineRequest__Output } from "@quarry/proto/types/ci/v1/PipelineRequest";
import type { CiDeps } from "../deps.ts";
import { lockPipeline, pipelineJobs, processPipelineById, toProcessable } from "../pipelines/process.ts";
import { persistRetryPlan, resetSourceBridges } from "../pipelines/retry.ts";
import { retryPipeline as planRetry } from "../processing/index.ts";
import { currentPipelineMessage } from "./actions.ts";
import { findPipeline } from "./pipelines.ts";

/**
 * POST /projects/:id/pipelines/:pipeline_id/retry (GitLab's Ci::RetryPipelineService): every
 * failed or canceled job (builds and bridges; a retried bridge starts a new child pipeline) is
 * cloned, skipped jobs are reset, and a child pipeline puts its `strategy: depend` bridge back to
 * pending. Answers the pipeline, also when there was nothing to retry.
 */
export const retryPipeline =
  (deps: CiDeps) =>
  async (req: PipelineRequest__Output): Promise<Pipeline> => {
    const pipeline = await findPipeline(deps.prisma, Number(req.projectId), Number(req.pipelineId));
    const retried = await deps.prisma.$transaction(async (tx) => {
      await lockPipeline(tx, pipeline.id);
      const jobs = await pipelineJobs(tx, pipeline.id);
      const plan = planRetry(jobs.map(toProcessable));
      await persistRetryPlan(tx, jobs, plan, Number(req.userId));
      return plan.clones.length + plan.changes.length > 0;
    });
    // Only a child that runs again is worth following: its bridge would wait forever otherwise.
    if (retried) await resetSourceBridges(deps, pipeline);
    await processPipelineById(deps, pipeline.id);
    return currentPipelineMessage(deps, pipeline.projectId, pipeline.id);
  };
