import type { JobTokenLinkRequest__Output } from "@quarry/proto/types/ci/v1/JobTokenLinkRequest";
import type { RemoveJobTokenLinkResponse } from "@quarry/proto/types/ci/v1/RemoveJobTokenLinkResponse";
import type { CiDeps } from "../deps.ts";
import { badRequestReason, validId } from "./job-token-scope.ts";

/** Removes a project from the allowlist (GitLab's RemoveProjectService messages). */
export const removeJobTokenProjectLink =
  (deps: CiDeps) =>
  async (req: JobTokenLinkRequest__Output): Promise<RemoveJobTokenLinkResponse> => {
    const sourceProjectId = validId(req.projectId, "id");
    const targetProjectId = validId(req.targetId, "target_project_id");
    if (targetProjectId === sourceProjectId) throw badRequestReason("Source project cannot be removed from the job token scope");
    const { count } = await deps.prisma.jobTokenProjectLink.deleteMany({ where: { sourceProjectId, targetProjectId } });
    if (!count) throw badRequestReason("Target project is not in the job token scope");
    return {};
  };
