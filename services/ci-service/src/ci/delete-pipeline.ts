import type { DeletePipelineResponse } from "@quarry/proto/types/ci/v1/DeletePipelineResponse";
import type { PipelineRequest__Output } from "@quarry/proto/types/ci/v1/PipelineRequest";
import type { CiDeps } from "../deps.ts";
import { findPipeline, selfAndDescendantIds } from "./pipelines.ts";

/**
 * Deletes a pipeline with its child pipelines, their jobs (artifact rows go with them), trace
 * chunks, and then the artifact objects. The rows go first, in one transaction: a failure after
 * it leaves unreferenced objects behind, never rows pointing at missing objects.
 */
export const deletePipeline =
  (deps: CiDeps) =>
  async (req: PipelineRequest__Output): Promise<DeletePipelineResponse> => {
    const keys = await deps.prisma.$transaction(async (tx) => {
      const pipeline = await findPipeline(tx, Number(req.projectId), Number(req.pipelineId));
      const pipelineIds = await selfAndDescendantIds(tx, pipeline.id);
      const jobIds = (await tx.job.findMany({ where: { pipelineId: { in: pipelineIds } }, select: { id: true } })).map((j) => j.id);
      const artifacts = await tx.jobArtifact.findMany({ where: { jobId: { in: jobIds } }, select: { objectKey: true } });
      await tx.jobTraceChunk.deleteMany({ where: { jobId: { in: jobIds } } });
      await tx.pipeline.deleteMany({ where: { id: { in: pipelineIds } } });
      return artifacts.map((a) => a.objectKey);
    });
    if (keys.length) await deps.objectStore.deleteMany(keys);
    return {};
  };
