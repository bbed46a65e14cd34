import { pagination } from "@quarry/database";
import { paramError } from "@quarry/grpc";
import type { ListProjectRunnersRequest__Output } from "@quarry/proto/types/ci/v1/ListProjectRunnersRequest";
import type { ListProjectRunnersResponse } from "@quarry/proto/types/ci/v1/ListProjectRunnersResponse";
import type { CiDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { validId } from "./job-token-scope.ts";
import { RUNNER_TYPES, toRunnerMessage } from "./runners.ts";

/** Ci::Runner::ONLINE_CONTACT_TIMEOUT and STALE_TIMEOUT. */
const ONLINE_MS = 2 * 3600_000;
const STALE_MS = 7 * 24 * 3600_000;

/** Ci::Runner::AVAILABLE_STATUSES, the `status` filter's values. */
export const RUNNER_STATUSES = ["active", "paused", "online", "offline", "never_contacted", "stale"] as const;

/** GitLab's status scopes of Ci::Runner (online, offline, never_contacted, stale, and the deprecated active/paused). */
function statusWhere(status: string, now: Date): Prisma.RunnerWhereInput {
  const onlineDeadline = new Date(now.getTime() - ONLINE_MS);
  const staleDeadline = new Date(now.getTime() - STALE_MS);
  switch (status) {
    case "":
      return {};
    case "active":
      return { paused: false };
    case "paused":
      return { paused: true };
    case "online":
      return { contactedAt: { gt: onlineDeadline } };
    case "offline":
      return { contactedAt: { lte: onlineDeadline } };
    case "never_contacted":
      return { contactedAt: null };
    case "stale":
      return { createdAt: { lte: staleDeadline }, OR: [{ contactedAt: null }, { contactedAt: { lte: staleDeadline } }] };
    default:
      throw paramError("status does not have a valid value");
  }
}

/** The runner filters both lists share. */
export interface RunnerFilters {
  type: string;
  paused?: boolean | null;
  status: string;
  tagList: string[];
  page: number;
  perPage: number;
}

/**
 * One page of the runners `owners` allows (an OR of owner conditions), filtered by GitLab's
 * apply_filter (`type`, `paused`, `status`, `tag_list`), by id, with the page's busy runners.
 */
export async function listRunners(deps: CiDeps, owners: Prisma.RunnerWhereInput[], req: RunnerFilters): Promise<ListProjectRunnersResponse> {
  if (req.type && !(RUNNER_TYPES as readonly string[]).includes(req.type)) throw paramError("type does not have a valid value");
  const where: Prisma.RunnerWhereInput = {
    AND: [
      { OR: owners },
      req.type ? { runnerType: req.type } : {},
      req.paused !== undefined && req.paused !== null ? { paused: req.paused } : {},
      statusWhere(req.status, new Date()),
      req.tagList.length ? { tagList: { hasEvery: req.tagList } } : {},
    ],
  };
  const { offset, limit } = pagination(req.page, req.perPage);
  const [rows, total] = await Promise.all([
    deps.prisma.runner.findMany({ where, orderBy: { id: "asc" }, skip: offset, take: limit }),
    deps.prisma.runner.count({ where }),
  ]);
  const busy = rows.length
    ? await deps.prisma.job.findMany({
        where: { runnerId: { in: rows.map((r) => r.id) }, status: "running" },
        select: { runnerId: true },
        distinct: ["runnerId"],
      })
    : [];
  return { runners: rows.map(toRunnerMessage), total, busyRunnerIds: busy.map((j) => j.runnerId!) };
}

/** Group runners of these groups (none for an empty list). */
export const groupRunnersOf = (groupIds: (number | string)[]): Prisma.RunnerWhereInput[] =>
  groupIds.length ? [{ runnerType: "group_type", groupId: { in: groupIds.map(Number) } }] : [];

/**
 * GET /projects/:id/runners (GitLab's Ci::Runner.owned_or_instance_wide with the `type`, `paused`,
 * `status` and `tag_list` filters): the project's own runners, the group runners of the groups the
 * project sits in (`group_ids`, given by the gateway) and the instance runners, by id.
 */
export const listProjectRunners =
  (deps: CiDeps) =>
  async (req: ListProjectRunnersRequest__Output): Promise<ListProjectRunnersResponse> => {
    const projectId = validId(req.projectId, "id");
    return listRunners(deps, [{ runnerType: "project_type", projectId }, ...groupRunnersOf(req.groupIds), { runnerType: "instance_type" }], req);
  };
