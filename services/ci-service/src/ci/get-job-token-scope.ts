import type { JobTokenScope } from "@quarry/proto/types/ci/v1/JobTokenScope";
import type { JobTokenScopeRequest__Output } from "@quarry/proto/types/ci/v1/JobTokenScopeRequest";
import type { CiDeps } from "../deps.ts";
import { validId } from "./job-token-scope.ts";

/** The project's setting; a project never configured has GitLab's default (limit on). */
export const getJobTokenScope =
  (deps: CiDeps) =>
  async (req: JobTokenScopeRequest__Output): Promise<JobTokenScope> => {
    const projectId = validId(req.projectId, "id");
    const row = await deps.prisma.ciSetting.findUnique({ where: { projectId } });
    return { inboundEnabled: row?.jobTokenScopeEnabled ?? true, outboundEnabled: false };
  };
