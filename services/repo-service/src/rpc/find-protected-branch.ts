import { status } from "@grpc/grpc-js";
import { RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { paramError, ServiceError } from "@quarry/grpc";
import type { FindProtectedBranchRequest__Output } from "@quarry/proto/types/repo/v1/FindProtectedBranchRequest";
import type { ProtectedBranch__Output as ProtectedBranch } from "@quarry/proto/types/repo/v1/ProtectedBranch";
import type { RepoDeps } from "../deps.ts";
import { toProtectedBranchMessage, type ProtectedBranchRow } from "../protection/protection.ts";
import { validateProjectId } from "../validate.ts";

/** GitLab answers a missing rule with ActiveRecord's generic "404 Not found". */
export const ruleNotFound = () => new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });

/** The rule named exactly `name` (a wildcard rule by its pattern), or "404 Not found". */
export async function findRule(deps: RepoDeps, projectId: number, name: string): Promise<ProtectedBranchRow> {
  if (!name) throw paramError("name is missing");
  const row = await deps.prisma.protectedBranch.findUnique({
    where: { projectId_name: { projectId: validateProjectId(projectId), name } },
    include: { accessLevels: true },
  });
  if (!row) throw ruleNotFound();
  return row;
}

export const findProtectedBranch =
  (deps: RepoDeps) =>
  async (req: FindProtectedBranchRequest__Output): Promise<ProtectedBranch> =>
    toProtectedBranchMessage(await findRule(deps, req.projectId, req.name));
