import { isUniqueViolation } from "@quarry/database";
import type { JobTokenLink } from "@quarry/proto/types/ci/v1/JobTokenLink";
import type { JobTokenLinkRequest__Output } from "@quarry/proto/types/ci/v1/JobTokenLinkRequest";
import type { CiDeps } from "../deps.ts";
import { badRequestReason, validId } from "./job-token-scope.ts";

/** Allows a group's projects in (GitLab's AddGroupService); the gateway checked the caller can see it. */
export const addJobTokenGroupLink =
  (deps: CiDeps) =>
  async (req: JobTokenLinkRequest__Output): Promise<JobTokenLink> => {
    const sourceProjectId = validId(req.projectId, "id");
    const targetGroupId = validId(req.targetId, "target_group_id");
    try {
      await deps.prisma.jobTokenGroupLink.create({ data: { sourceProjectId, targetGroupId } });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequestReason("Target group is already in the job token scope");
      throw err;
    }
    return { sourceProjectId, targetId: targetGroupId };
  };
