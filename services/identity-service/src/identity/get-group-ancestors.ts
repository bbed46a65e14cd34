import { paramError } from "@quarry/grpc";
import type { GetGroupAncestorsRequest__Output } from "@quarry/proto/types/identity/v1/GetGroupAncestorsRequest";
import type { GetGroupAncestorsResponse } from "@quarry/proto/types/identity/v1/GetGroupAncestorsResponse";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { visibleGroup, visibleProject } from "./lookup.ts";

/**
 * A group's chain (or a project's group's), nearest first, read from the namespace's
 * traversal_ids (root first, the namespace last) in one query, instead of a GetGroup per level.
 */
export const getGroupAncestors =
  (deps: IdentityDeps) =>
  async (req: GetGroupAncestorsRequest__Output): Promise<GetGroupAncestorsResponse> => {
    const actor = actorOf(req.actor);
    let traversalIds: number[];
    if (Number(req.projectId) > 0) {
      const { project } = await visibleProject(deps.prisma, actor, String(req.projectId));
      if (project.namespace.kind !== "group") return { groupIds: [] };
      traversalIds = project.namespace.traversalIds;
    } else if (Number(req.groupId) > 0) {
      traversalIds = (await visibleGroup(deps.prisma, actor, String(req.groupId))).group.traversalIds;
    } else {
      throw paramError("group_id or project_id is required");
    }
    return { groupIds: [...traversalIds].reverse() };
  };
