import { isPositiveInt32 } from "@quarry/gitlab";
import { badRequest } from "@quarry/grpc";
import type { CountMirrorsRequest__Output } from "@quarry/proto/types/mirror/v1/CountMirrorsRequest";
import type { CountMirrorsResponse } from "@quarry/proto/types/mirror/v1/CountMirrorsResponse";
import type { MirrorDeps } from "../deps.ts";

/** Number of push mirrors of a project (0 for a project without any). */
export const countMirrors =
  (deps: MirrorDeps) =>
  async (req: CountMirrorsRequest__Output): Promise<CountMirrorsResponse> => {
    const projectId = Number(req.projectId);
    if (!isPositiveInt32(projectId)) {
      throw badRequest("project_id is invalid");
    }
    return { count: await deps.prisma.remoteMirror.count({ where: { projectId } }) };
  };
