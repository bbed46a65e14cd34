import type { Pipeline } from "@quarry/proto/types/ci/v1/Pipeline";
import type { PipelineRequest__Output } from "@quarry/proto/types/ci/v1/PipelineRequest";
import type { CiDeps } from "../deps.ts";
import { applyStatusChanges, lockPipeline, pipelineJobs, processPipelineById } from "../pipelines/process.ts";
import { cancelPipeline as planCancel, type JobStatus } from "../processing/index.ts";
import { currentPipelineMessage } from "./actions.ts";
import { findPipeline, selfAndDescendantIds } from "./pipelines.ts";

/**
 * POST /projects/:id/pipelines/:pipeline_id/cancel (GitLab's Ci::CancelPipelineService, which
 * cascades to child pipelines): every cancelable job of the pipeline and of its descendants is
 * canceled, running builds through `canceling` while their runners run `after_script`; manual
 * jobs stay playable. Like GitLab's API, a pipeline with nothing to cancel is answered as it is.
 */
export const cancelPipeline =
  (deps: CiDeps) =>
  async (req: PipelineRequest__Output): Promise<Pipeline> => {
    const pipeline = await findPipeline(deps.prisma, Number(req.projectId), Number(req.pipelineId));
    const ids = await selfAndDescendantIds(deps.prisma, pipeline.id);
    for (const id of ids) {
      await deps.prisma.$transaction(async (tx) => {
        if (!(await lockPipeline(tx, id))) return;
        const jobs = await pipelineJobs(tx, id);
        const { changes } = planCancel(
          // Only builds have a runner that can run `after_script`; a bridge is canceled at once.
          jobs.map((j) => ({
            id: j.id,
            status: j.status as JobStatus,
            allowFailure: j.allowFailure,
            retried: j.retried,
            supportsCanceling: j.type === "build",
          })),
        );
        await applyStatusChanges(tx, changes);
      });
    }
    for (const id of ids.toReversed()) await processPipelineById(deps, id);
    return currentPipelineMessage(deps, pipeline.projectId, pipeline.id);
  };
