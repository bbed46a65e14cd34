import { pagination } from "@quarry/database";
import type { ListProtectedBranchesRequest__Output } from "@quarry/proto/types/repo/v1/ListProtectedBranchesRequest";
import type { ListProtectedBranchesResponse__Output as ListProtectedBranchesResponse } from "@quarry/proto/types/repo/v1/ListProtectedBranchesResponse";
import type { RepoDeps } from "../deps.ts";

import { toProtectedBranchMessage } from "../protection/protection.ts";
import { validateProjectId } from "../validate.ts";

/** A project's protected-branch rules sorted by name, `search` as a case-insensitive substring. */
export const listProtectedBranches =
  (deps: RepoDeps) =>
  async (req: ListProtectedBranchesRequest__Output): Promise<ListProtectedBranchesResponse> => {
    const projectId = validateProjectId(req.projectId);
    const { offset, limit } = pagination(req.page, req.perPage);
    const where = { projectId, ...(req.search ? { name: { contains: req.search, mode: "insensitive" as const } } : {}) };
    const [rows, total] = await Promise.all([
      deps.prisma.protectedBranch.findMany({ where, include: { accessLevels: true }, orderBy: [{ name: "asc" }, { id: "asc" }], skip: offset, take: limit }),
      deps.prisma.protectedBranch.count({ where }),
    ]);
    return { protectedBranches: rows.map(toProtectedBranchMessage), total };
  };
