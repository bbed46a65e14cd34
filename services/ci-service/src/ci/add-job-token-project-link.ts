import { isUniqueViolation } from "@quarry/database";
import type { JobTokenLink } from "@quarry/proto/types/ci/v1/JobTokenLink";
import type { JobTokenLinkRequest__Output } from "@quarry/proto/types/ci/v1/JobTokenLinkRequest";
import type { CiDeps } from "../deps.ts";
import { badRequestReason, validId } from "./job-token-scope.ts";

/**
 * Allows `target` to use its job tokens on the project (GitLab's AddProjectService). The gateway
 * has checked that the caller maintains the project and can see the target.
 */
export const addJobTokenProjectLink =
  (deps: CiDeps) =>
  async (req: JobTokenLinkRequest__Output): Promise<JobTokenLink> => {
    const sourceProjectId = validId(req.projectId, "id");
    const targetProjectId = validId(req.targetId, "target_project_id");
    if (targetProjectId === sourceProjectId) {
      throw badRequestReason("Validation failed: Target project can't be the same as the source project");
    }
    try {
      await deps.prisma.jobTokenProjectLink.create({ data: { sourceProjectId, targetProjectId } });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequestReason("Target project is already in the job token scope");
      throw err;
    }
    return { sourceProjectId, targetId: targetProjectId };
  };
