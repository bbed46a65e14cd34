import { pagination } from "@quarry/database";
import { paramError } from "@quarry/grpc";
import type { ListJobsRequest__Output } from "@quarry/proto/types/ci/v1/ListJobsRequest";
import type { ListJobsResponse } from "@quarry/proto/types/ci/v1/ListJobsResponse";
import type { CiDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { JOB_INCLUDE } from "../pipelines/messages.ts";
import { validId } from "./job-token-scope.ts";
import { findPipeline, jobMessages, scopeStatuses, selfAndDescendantIds } from "./pipelines.ts";

/**
 * Which jobs a list shows (GitLab's JobsFinder). The project's list holds every build, retried
 * ones too (`project.builds`); a pipeline's builds come from it and its child pipelines, its
 * bridges from it alone, and both leave retried jobs out unless asked.
 */
async function jobsFilter(deps: CiDeps, projectId: number, req: ListJobsRequest__Output): Promise<Prisma.JobWhereInput> {
  const type = req.type || "build";
  if (type !== "build" && type !== "bridge") throw paramError("type does not have a valid value");
  const statuses = scopeStatuses(req.scope);
  const status = statuses.length ? { status: { in: statuses } } : {};
  if (Number(req.pipelineId) === 0) return { projectId, type, ...status };
  const pipeline = await findPipeline(deps.prisma, projectId, Number(req.pipelineId));
  const pipelineIds = type === "build" ? await selfAndDescendantIds(deps.prisma, pipeline.id) : [pipeline.id];
  return { pipelineId: { in: pipelineIds }, type, ...status, ...(req.includeRetried ? {} : { retried: false }) };
}

/** Jobs of a project or a pipeline, by id; offset pages with a total, or keyset pages after an id. */
export const listJobs =
  (deps: CiDeps) =>
  async (req: ListJobsRequest__Output): Promise<ListJobsResponse> => {
    const projectId = validId(req.projectId, "id");
    if (req.sort && req.sort !== "asc" && req.sort !== "desc") throw paramError("sort does not have a valid value");
    const sort = req.sort === "asc" ? "asc" : "desc";
    const where = await jobsFilter(deps, projectId, req);
    const { offset, limit } = pagination(req.page, req.perPage);
    if (req.keyset) {
      const after = Number(req.idAfter);
      const position = after > 0 ? { id: sort === "asc" ? { gt: after } : { lt: after } } : {};
      const rows = await deps.prisma.job.findMany({ where: { AND: [where, position] }, include: JOB_INCLUDE, orderBy: { id: sort }, take: limit + 1 });
      return { jobs: await jobMessages(deps.prisma, rows.slice(0, limit)), total: 0, hasMore: rows.length > limit };
    }
    const [rows, total] = await Promise.all([
      deps.prisma.job.findMany({ where, include: JOB_INCLUDE, orderBy: { id: sort }, skip: offset, take: limit }),
      deps.prisma.job.count({ where }),
    ]);
    return { jobs: await jobMessages(deps.prisma, rows), total, hasMore: offset + rows.length < total };
  };
