import { pagination } from "@quarry/database";
import { badRequest, paramError } from "@quarry/grpc";
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

/** DeploymentsFinder#validate!'s refusals (InefficientQueryError, answered `400 Bad request - …`). */
function validate(filterUpdated: boolean, filterFinished: boolean, orderBy: string, status: string): void {
  const refuse = (message: string) => badRequest(`400 Bad request - ${message}`);
  if (filterUpdated && filterFinished) throw refuse("Both `updated_at` filter and `finished_at` filter can not be specified");
  if (filterFinished !== (orderBy === "finished_at")) throw refuse("`finished_at` filter and `finished_at` sorting must be paired");
  if (filterFinished && status !== "success") throw refuse("`finished_at` filter must be combined with `success` status filter.");
}

/**
 * GitLab's DeploymentsFinder#optimize_sort_params!: an `updated_at` filter sorts by updated_at;
 * created_at and iid sort as id; updated_at breaks ties by id descending. Other orders get an id
 * tie-breaker in their direction, so that pages never overlap.
 */
function sortOrder(
  column: (typeof ORDER_COLUMNS)[keyof typeof ORDER_COLUMNS],
  sort: "asc" | "desc",
  filterUpdated: boolean,
): Prisma.DeploymentOrderByWithRelationInput[] {
  const effective = filterUpdated ? "updatedAt" : column === "createdAt" || column === "iid" ? "id" : column;
  if (effective === "id") return [{ id: sort }];
  if (effective === "updatedAt") return [{ updatedAt: sort }, { id: "desc" }];
  return [{ [effective]: sort }, { id: sort }];
}

/**
 * A project's deployments (GitLab's DeploymentsFinder): environment name, status, updated_at and
 * finished_at bounds (exclusive, as the finder's `>`/`<`), one offset page with the total; by id
 * ascending unless told otherwise. A finished_at window needs `status: success` and
 * `order_by: finished_at`, as in GitLab.
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
    const filterUpdated = Boolean(updatedAfter || updatedBefore);
    const filterFinished = Boolean(finishedAfter || finishedBefore);
    validate(filterUpdated, filterFinished, req.orderBy || "id", req.status);
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
    const orderBy = sortOrder(column, sort, filterUpdated);
    const [rows, total] = await Promise.all([
      deps.prisma.deployment.findMany({ where, orderBy, skip: offset, take: limit, include: { environment: true } }),
      deps.prisma.deployment.count({ where }),
    ]);
    return { deployments: await deploymentMessages(deps.prisma, rows), total };
  };
