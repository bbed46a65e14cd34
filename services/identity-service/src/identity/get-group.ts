import type { GetGroupRequest__Output } from "@quarry/proto/types/identity/v1/GetGroupRequest";
import type { Group } from "@quarry/proto/types/identity/v1/Group";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { groupToProto } from "./convert.ts";
import { visibleGroup } from "./lookup.ts";

export const getGroup =
  (deps: IdentityDeps) =>
  async (req: GetGroupRequest__Output): Promise<Group> => {
    const { group, level } = await visibleGroup(deps.prisma, actorOf(req.actor), req.idOrPath);
    return groupToProto(group, level);
  };
