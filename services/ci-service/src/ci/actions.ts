// Shared by the job and pipeline action RPCs: the job a request names, and what they answer.
import { isPositiveInt32 } from "@quarry/gitlab";
import type { Job as JobMessage } from "@quarry/proto/types/ci/v1/Job";
import type { Pipeline as PipelineMessage } from "@quarry/proto/types/ci/v1/Pipeline";
import type { CiDeps } from "../deps.ts";
import { JOB_INCLUDE, type JobWithRelations } from "../pipelines/messages.ts";
import { findPipeline, jobMessages, pipelineMessages, recordNotFound } from "./pipelines.ts";

/** The project's job, a build or a bridge (GitLab's `find_job!`, for retry and play), or 404. */
export async function findJob(deps: CiDeps, projectId: number, jobId: number): Promise<JobWithRelations> {
  const job = isPositiveInt32(jobId) ? await deps.prisma.job.findFirst({ where: { id: jobId, projectId }, include: JOB_INCLUDE }) : null;
  if (!job) throw recordNotFound();
  return job;
}

/** A job's message as it is now. */
export async function currentJobMessage(deps: CiDeps, jobId: number): Promise<JobMessage> {
  const job = await deps.prisma.job.findUniqueOrThrow({ where: { id: jobId }, include: JOB_INCLUDE });
  const [message] = await jobMessages(deps.prisma, [job]);
  return message!;
}

/** A pipeline's message as it is now. */
export async function currentPipelineMessage(deps: CiDeps, projectId: number, pipelineId: number): Promise<PipelineMessage> {
  const [message] = await pipelineMessages(deps.prisma, [await findPipeline(deps.prisma, projectId, pipelineId)]);
  return message!;
}
