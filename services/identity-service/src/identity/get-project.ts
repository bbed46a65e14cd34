import type { GetProjectRequest__Output } from "@quarry/proto/types/identity/v1/GetProjectRequest";
import type { Project as ProjectMsg } from "@quarry/proto/types/identity/v1/Project";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { projectToProto } from "./convert.ts";
import { visibleProject } from "./lookup.ts";

export const getProject =
  (deps: IdentityDeps) =>
  async (req: GetProjectRequest__Output): Promise<ProjectMsg> => {
    const { project, levels } = await visibleProject(deps.prisma, actorOf(req.actor), req.idOrPath);
    return projectToProto(project, levels);
  };
