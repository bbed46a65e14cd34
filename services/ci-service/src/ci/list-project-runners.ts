import { pagination } from "@quarry/database";
import { paramError } from "@quarry/grpc";
import type { ListProjectRunnersRequest__Output } from "@quarry/proto/types/ci/v1/ListProjectRunnersRequest";
import type { ListProjectRunnersResponse } from "@quarry/proto/types/ci/v1/ListProjectRunnersResponse";
import type { CiDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { validId } from "./job-token-scope.ts";
import { RUNNER_TYPES, toRunnerMessage } from "./runners.ts";

/**
 * GET /projects/:id/runners (GitLab's Ci::Runner.owned_or_instance_wide with the `type`, `paused`
 * and `tag_list` filters): the project's own runners and the instance runners, by id. Group
 * runners are not offered to projects here (no group runner inheritance is modelled).
 */
export const listProjectRunners =
  (deps: CiDeps) =>
  async (req: ListProjectRunnersRequest__Output): Promise<ListProjectRunnersResponse> => {
    const projectId = validId(req.projectId, "id");
    if (req.type && !(RUNNER_TYPES as readonly string[]).includes(req.type)) throw paramError("type does not have a valid value");
    const where: Prisma.RunnerWhereInput = {
      OR: [{ runnerType: "project_type", projectId }, { runnerType: "instance_type" }],
      ...(req.type ? { runnerType: req.type } : {}),
      ...(req.paused !== undefined && req.paused !== null ? { paused: req.paused } : {}),
      ...(req.tagList.length ? { tagList: { hasEvery: req.tagList } } : {}),
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
  };
