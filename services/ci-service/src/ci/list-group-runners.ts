import type { ListGroupRunnersRequest__Output } from "@quarry/proto/types/ci/v1/ListGroupRunnersRequest";
import type { ListProjectRunnersResponse } from "@quarry/proto/types/ci/v1/ListProjectRunnersResponse";
import type { CiDeps } from "../deps.ts";
import { validId } from "./job-token-scope.ts";
import { groupRunnersOf, listRunners } from "./list-project-runners.ts";

/**
 * GET /groups/:id/runners (GitLab's Ci::Runner.group_or_instance_wide with apply_filter): the group
 * runners of the group and its ancestors (`group_ids`, the group first; the gateway asks
 * identity-service for the chain) and the instance runners, by id. Project runners of the
 * group's projects are not listed, as in GitLab.
 */
export const listGroupRunners =
  (deps: CiDeps) =>
  async (req: ListGroupRunnersRequest__Output): Promise<ListProjectRunnersResponse> => {
    validId(req.groupIds[0] ?? 0, "id");
    return listRunners(deps, [...groupRunnersOf(req.groupIds), { runnerType: "instance_type" }], req);
  };
