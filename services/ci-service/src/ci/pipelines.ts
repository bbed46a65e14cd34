// Shared reads of the pipeline and job RPCs: lookups with GitLab's 404, pipeline trees, and
// page-sized message building with every related row loaded in bulk.
import { isJobStatus, isPositiveInt32, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { paramError, ServiceError, status } from "@quarry/grpc";
import type { Job as JobMessage } from "@quarry/proto/types/ci/v1/Job";
import type { Pipeline as PipelineMessage } from "@quarry/proto/types/ci/v1/Pipeline";
import type { PrismaClient, Tx } from "../deps.ts";
import type { Pipeline } from "../generated/prisma/client.ts";
import { loadJobMessageContext, pipelineCoverage, toJobMessage, toPipelineMessage, type JobWithRelations } from "../pipelines/messages.ts";

/** What GitLab answers for a pipeline or job that is not in the project (ActiveRecord::RecordNotFound). */
export const recordNotFound = () => new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });

/** The project's pipeline, or 404. */
export async function findPipeline(db: PrismaClient | Tx, projectId: number, pipelineId: number): Promise<Pipeline> {
  const pipeline = isPositiveInt32(pipelineId) ? await db.pipeline.findFirst({ where: { id: pipelineId, projectId } }) : null;
  if (!pipeline) throw recordNotFound();
  return pipeline;
}

/** The pipeline and its child pipelines at any depth (GitLab's self_and_project_descendants). */
export async function selfAndDescendantIds(db: PrismaClient | Tx, pipelineId: number): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number }[]>`
    WITH RECURSIVE tree AS (
      SELECT id FROM pipelines WHERE id = ${pipelineId}
      UNION ALL
      SELECT p.id FROM pipelines p JOIN tree t ON p.parent_pipeline_id = t.id
    )
    SELECT id FROM tree`;
  return rows.map((r) => Number(r.id));
}

/** Job statuses of a `scope` filter; an unknown one is GitLab's parameter error. */
export function scopeStatuses(scope: readonly string[]): string[] {
  if (!scope.every(isJobStatus)) throw paramError("scope does not have a valid value");
  return [...scope];
}

/** Pipeline messages with their coverage (the mean of their jobs'), one query for the whole page. */
export async function pipelineMessages(db: PrismaClient, pipelines: readonly Pipeline[]): Promise<PipelineMessage[]> {
  const jobs = pipelines.length
    ? await db.job.findMany({
        where: { pipelineId: { in: pipelines.map((p) => p.id) }, coverage: { not: null } },
        select: { pipelineId: true, coverage: true, retried: true },
      })
    : [];
  return pipelines.map((p) => toPipelineMessage(p, pipelineCoverage(jobs.filter((j) => j.pipelineId === p.id))));
}

/** Job messages for a page of jobs, their runners, managers and downstream pipelines loaded in bulk. */
export async function jobMessages(db: PrismaClient, jobs: readonly JobWithRelations[]): Promise<JobMessage[]> {
  const context = await loadJobMessageContext(db, jobs);
  return jobs.map((j) => toJobMessage(j, context));
}
