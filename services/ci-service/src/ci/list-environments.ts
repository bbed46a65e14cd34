import { pagination } from "@quarry/database";
import { paramError } from "@quarry/grpc";
import type { ListEnvironmentsRequest__Output } from "@quarry/proto/types/ci/v1/ListEnvironmentsRequest";
import type { ListEnvironmentsResponse } from "@quarry/proto/types/ci/v1/ListEnvironmentsResponse";
import type { CiDeps } from "../deps.ts";
import { toEnvironmentMessage } from "../environments/messages.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { validId } from "./job-token-scope.ts";

/** Environment#state values (GitLab's `states` filter). */
const STATES = ["available", "stopping", "stopped"];

/** A project's environments (GitLab's Environments::EnvironmentsFinder): name, search, states; by id. */
export const listEnvironments =
  (deps: CiDeps) =>
  async (req: ListEnvironmentsRequest__Output): Promise<ListEnvironmentsResponse> => {
    const projectId = validId(req.projectId, "id");
    if (req.states && !STATES.includes(req.states)) throw paramError("states does not have a valid value");
    const where: Prisma.EnvironmentWhereInput = {
      projectId,
      ...(req.name ? { name: req.name } : {}),
      ...(req.search ? { name: { contains: req.search, mode: "insensitive" } } : {}),
      ...(req.states ? { state: req.states } : {}),
    };
    const { offset, limit } = pagination(req.page, req.perPage);
    const [rows, total] = await Promise.all([
      deps.prisma.environment.findMany({ where, orderBy: { id: "asc" }, skip: offset, take: limit }),
      deps.prisma.environment.count({ where }),
    ]);
    return { environments: rows.map((e) => toEnvironmentMessage(e)), total };
  };
