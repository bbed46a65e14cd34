import type { JobTokenLinkRequest__Output } from "@quarry/proto/types/ci/v1/JobTokenLinkRequest";
import type { RemoveJobTokenLinkResponse } from "@quarry/proto/types/ci/v1/RemoveJobTokenLinkResponse";
import type { CiDeps } from "../deps.ts";
import { badRequestReason, validId } from "./job-token-scope.ts";

/** Removes a group from the allowlist (GitLab's RemoveGroupService messages). */
export const removeJobTokenGroupLink =
  (deps: CiDeps) =>
  async (req: JobTokenLinkRequest__Output): Promise<RemoveJobTokenLinkResponse> => {
    const sourceProjectId = validId(req.projectId, "id");
    const targetGroupId = validId(req.targetId, "target_group_id");
    const { count } = await deps.prisma.jobTokenGroupLink.deleteMany({ where: { sourceProjectId, targetGroupId } });
    if (!count) throw badRequestReason("Target group is not in the job token scope");
    return {};
  };
