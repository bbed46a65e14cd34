import type { SetJobTokenScopeRequest__Output } from "@quarry/proto/types/ci/v1/SetJobTokenScopeRequest";
import type { SetJobTokenScopeResponse } from "@quarry/proto/types/ci/v1/SetJobTokenScopeResponse";
import type { CiDeps } from "../deps.ts";
import { validId } from "./job-token-scope.ts";

/** Turns "limit access to this project" on or off (the settings row is created on first change). */
export const setJobTokenScope =
  (deps: CiDeps) =>
  async (req: SetJobTokenScopeRequest__Output): Promise<SetJobTokenScopeResponse> => {
    const projectId = validId(req.projectId, "id");
    await deps.prisma.ciSetting.upsert({
      where: { projectId },
      create: { projectId, jobTokenScopeEnabled: req.enabled },
      update: { jobTokenScopeEnabled: req.enabled },
    });
    return {};
  };
