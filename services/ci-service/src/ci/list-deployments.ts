import { pagination } from "@quarry/database";
import { paramError } from "@quarry/grpc";
import type { ListDeploymentsRequest__Output } from "@quarry/proto/types/ci/v1/ListDeploymentsRequest";
import type { ListDeploymentsResponse } from "@quarry/proto/types/ci/v1/ListDeploymentsResponse";
import type { CiDeps } from "../deps.ts";
import { DEPLOYMENT_STATUSES } from "../environments/environments.ts";
import { deploymentMessages } from "../environments/messages.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { validId } from "./job-token-scope.ts";

const ORDER_COLUMNS = { id: "id", iid: "iid", created_at: "createdAt", updated_at: "updatedAt", finished_at: "finishedAt", ref: "ref" } as const;

function time(value: string, field: string): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw paramError(`${field} is invalid`);
  return date;
}

/**
 * A project's deployments (GitLab's DeploymentsFinder): environment name, status, updated_at and
 * finished_at bounds (exclusive, as the finder's `>`/`<`), one offset page with the total. GitLab
 * sorts by id asc by default; any other order breaks ties by id in the same direction.
 */
export const listDeployments =
  (deps: CiDeps) =>
  async (req: ListDeploymentsRequest__Output): Promise<ListDeploymentsResponse> => {
    const projectId = validId(req.projectId, "id");
    const column = ORDER_COLUMNS[(req.orderBy || "id") as keyof typeof ORDER_COLUMNS];
    if (!column) throw paramError("order_by does not have a valid value");
    if (req.sort && req.sort !== "asc" && req.sort !== "desc") throw paramError("sort does not have a valid value");
    if (req.status && !(DEPLOYMENT_STATUSES as readonly string[]).includes(req.status)) throw paramError("status does not have a valid value");
    const sort = req.sort === "desc" ? "desc" : "asc";
    const updatedAfter = time(req.updatedAfter, "updated_after");
    const updatedBefore = time(req.updatedBefore, "updated_before");
    const finishedAfter = time(req.finishedAfter, "finished_after");
    const finishedBefore = time(req.finishedBefore, "finished_before");
    const where: Prisma.DeploymentWhereInput = {
      AND: [
        { projectId },
        req.environment ? { environment: { name: req.environment } } : {},
        req.status ? { status: req.status } : {},
        updatedAfter || updatedBefore ? { updatedAt: { gt: updatedAfter, lt: updatedBefore } } : {},
        finishedAfter || finishedBefore ? { finishedAt: { not: null, gt: finishedAfter, lt: finishedBefore } } : {},
      ],
    };
    const { offset, limit } = pagination(req.page, req.perPage);
    const orderBy: Prisma.DeploymentOrderByWithRelationInput[] = column === "id" ? [{ id: sort }] : [{ [column]: sort }, { id: sort }];
    const [rows, total] = await Promise.all([
      deps.prisma.deployment.findMany({ where, orderBy, skip: offset, take: limit, include: { environment: true } }),
      deps.prisma.deployment.count({ where }),
    ]);
    return { deployments: await deploymentMessages(deps.prisma, rows), total };
  };
