import { pagination } from "@quarry/database";
import type { ListJobTokenLinksRequest__Output } from "@quarry/proto/types/ci/v1/ListJobTokenLinksRequest";
import type { ListJobTokenLinksResponse } from "@quarry/proto/types/ci/v1/ListJobTokenLinksResponse";
import type { CiDeps } from "../deps.ts";
import { validId } from "./job-token-scope.ts";

/** The groups whose projects' job tokens may reach this project, oldest link first. */
export const listJobTokenGroupLinks =
  (deps: CiDeps) =>
  async (req: ListJobTokenLinksRequest__Output): Promise<ListJobTokenLinksResponse> => {
    const sourceProjectId = validId(req.projectId, "id");
    const { offset, limit } = pagination(req.page, req.perPage);
    const [links, total] = await Promise.all([
      deps.prisma.jobTokenGroupLink.findMany({ where: { sourceProjectId }, orderBy: { id: "asc" }, skip: offset, take: limit }),
      deps.prisma.jobTokenGroupLink.count({ where: { sourceProjectId } }),
    ]);
    return { targetIds: links.map((l) => l.targetGroupId), total };
  };
