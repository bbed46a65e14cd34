import { forbidden } from "@quarry/grpc";
import type { Job } from "@quarry/proto/types/ci/v1/Job";
import type { JobRequest__Output } from "@quarry/proto/types/ci/v1/JobRequest";
import type { CiDeps } from "../deps.ts";
import { deleteArtifactRows } from "../pipelines/remove-artifacts.ts";
import { isComplete, type JobStatus } from "../processing/index.ts";
import { findBuild } from "./get-job.ts";
import { currentJobMessage } from "./actions.ts";
import { publishArtifactsStatistics } from "../events/artifacts-statistics.ts";

/**
 * POST /projects/:id/jobs/:job_id/erase (GitLab's Ci::BuildEraseService): a finished build loses
 * its trace and every artifact (rows and objects) and records when. 403 "Job is not erasable!"
 * unless the job is finished and has something to erase (GitLab's Ci::Build#erasable?).
 */
export const eraseJob =
  (deps: CiDeps) =>
  async (req: JobRequest__Output): Promise<Job> => {
    const job = await findBuild(deps, Number(req.projectId), Number(req.jobId));
    const erasable = isComplete(job.status as JobStatus) && (job.artifacts.length > 0 || job.traceLength > 0);
    if (!erasable) throw forbidden("403 Forbidden - Job is not erasable!");
    const keys = await deps.prisma.$transaction(async (tx) => {
      const removed = await deleteArtifactRows(tx, job.id, "all");
      await tx.jobTraceChunk.deleteMany({ where: { jobId: job.id } });
      await tx.job.update({ where: { id: job.id }, data: { erasedAt: new Date(), traceLength: 0 } });
      return removed;
    });
    await deps.objectStore.deleteMany(keys);
    await publishArtifactsStatistics(deps, [job.projectId]);
    return currentJobMessage(deps, job.id);
  };
