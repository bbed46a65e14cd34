import { pagination } from "@quarry/database";
import type { ListJobTokenLinksRequest__Output } from "@quarry/proto/types/ci/v1/ListJobTokenLinksRequest";
import type { ListJobTokenLinksResponse } from "@quarry/proto/types/ci/v1/ListJobTokenLinksResponse";
import type { CiDeps } from "../deps.ts";
import { validId } from "./job-token-scope.ts";

/**
 * The projects whose job tokens may reach this one: the project itself first (GitLab's
 * Scope#inbound_projects always holds it), then the allowlist, oldest first.
 */
export const listJobTokenProjectLinks =
  (deps: CiDeps) =>
  async (req: ListJobTokenLinksRequest__Output): Promise<ListJobTokenLinksResponse> => {
    const projectId = validId(req.projectId, "id");
    const { offset, limit } = pagination(req.page, req.perPage);
    const where = { sourceProjectId: projectId, targetProjectId: { not: projectId } };
    // Row 0 of the list is the project itself; links start at row 1.
    const [links, count] = await Promise.all([
      deps.prisma.jobTokenProjectLink.findMany({
        where,
        orderBy: { id: "asc" },
        skip: Math.max(0, offset - 1),
        take: offset === 0 ? limit - 1 : limit,
      }),
      deps.prisma.jobTokenProjectLink.count({ where }),
    ]);
    const ids = links.map((l) => l.targetProjectId);
    return { targetIds: offset === 0 ? [projectId, ...ids] : ids, total: count + 1 };
  };
