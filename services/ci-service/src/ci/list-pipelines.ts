import { pagination } from "@quarry/database";
import { COMPLETED_STATUSES, isJobStatus } from "@quarry/gitlab";
import { paramError } from "@quarry/grpc";
import type { ListPipelinesRequest__Output } from "@quarry/proto/types/ci/v1/ListPipelinesRequest";
import type { ListPipelinesResponse } from "@quarry/proto/types/ci/v1/ListPipelinesResponse";
import type { CiDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { validId } from "./job-token-scope.ts";
import { pipelineMessages } from "./pipelines.ts";

const ORDER_COLUMNS = { id: "id", status: "status", ref: "ref", updated_at: "updatedAt", user_id: "userId" } as const;

/** A child pipeline's source; GitLab lists child pipelines only when asked for this source. */
const CHILD_SOURCE = "parent_pipeline";

function time(value: string, field: string): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw paramError(`${field} is invalid`);
  return date;
}

/**
 * `branches` and `tags`: the newest listed pipeline of each branch or tag (GitLab's ids_for_ref,
 * which groups the pipelines by ref and keeps the highest id).
 */
async function newestPerRef(deps: CiDeps, listed: Prisma.PipelineWhereInput, tag: boolean): Promise<number[]> {
  const groups = await deps.prisma.pipeline.groupBy({ by: ["ref"], where: { AND: [listed, { tag }] }, _max: { id: true } });
  return groups.map((g) => g._max.id).filter((id): id is number => id !== null);
}

async function scopeFilter(deps: CiDeps, listed: Prisma.PipelineWhereInput, scope: string): Promise<Prisma.PipelineWhereInput> {
  switch (scope) {
    case "":
      return {};
    case "running":
    case "pending":
      return { status: scope };
    case "finished":
      return { status: { in: [...COMPLETED_STATUSES] } };
    case "branches":
    case "tags":
      return { id: { in: await newestPerRef(deps, listed, scope === "tags") } };
    default:
      throw paramError("scope does not have a valid value");
  }
}

/** A project's pipelines with GitLab's PipelinesFinder filters, one offset page and the total. */
export const listPipelines =
  (deps: CiDeps) =>
  async (req: ListPipelinesRequest__Output): Promise<ListPipelinesResponse> => {
    const projectId = validId(req.projectId, "id");
    if (req.status && !isJobStatus(req.status)) throw paramError("status does not have a valid value");
    const column = ORDER_COLUMNS[(req.orderBy || "id") as keyof typeof ORDER_COLUMNS];
    if (!column) throw paramError("order_by does not have a valid value");
    if (req.sort && req.sort !== "asc" && req.sort !== "desc") throw paramError("sort does not have a valid value");
    const sort = req.sort === "asc" ? "asc" : "desc";
    const updatedAfter = time(req.updatedAfter, "updated_after");
    const updatedBefore = time(req.updatedBefore, "updated_before");
    const createdAfter = time(req.createdAfter, "created_after");
    const createdBefore = time(req.createdBefore, "created_before");
    const mergeRequestIid = Number(req.mergeRequestIid);
    const listed: Prisma.PipelineWhereInput = {
      projectId,
      source: req.source ? req.source : { not: CHILD_SOURCE },
      ...(mergeRequestIid > 0 ? { mergeRequestIid } : {}),
    };
    const where: Prisma.PipelineWhereInput = {
      AND: [
        listed,
        await scopeFilter(deps, listed, req.scope),
        req.status ? { status: req.status } : {},
        req.ref ? { ref: req.ref } : {},
        req.sha ? { sha: req.sha } : {},
        req.name ? { name: req.name } : {},
        Number(req.userId) > 0 ? { userId: Number(req.userId) } : {},
        req.yamlErrors ? { yamlErrors: { not: null } } : {},
        updatedAfter || updatedBefore ? { updatedAt: { gt: updatedAfter, lt: updatedBefore } } : {},
        createdAfter || createdBefore ? { createdAt: { gt: createdAfter, lt: createdBefore } } : {},
      ],
    };
    const { offset, limit } = pagination(req.page, req.perPage);
    const orderBy: Prisma.PipelineOrderByWithRelationInput[] = column === "id" ? [{ id: sort }] : [{ [column]: sort }, { id: sort }];
    const [rows, total] = await Promise.all([
      deps.prisma.pipeline.findMany({ where, orderBy, skip: offset, take: limit }),
      deps.prisma.pipeline.count({ where }),
    ]);
    return { pipelines: await pipelineMessages(deps.prisma, rows), total };
  };
