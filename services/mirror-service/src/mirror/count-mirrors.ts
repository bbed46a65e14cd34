import { badRequest } from "@quarry/grpc";
import type { CountMirrorsRequest__Output } from "@quarry/proto/types/mirror/v1/CountMirrorsRequest";
import type { CountMirrorsResponse } from "@quarry/proto/types/mirror/v1/CountMirrorsResponse";
import type { MirrorDeps } from "../deps.ts";

const MAX_ID = 2_147_483_647; // project ids are PostgreSQL integers

/** Number of push mirrors of a project (0 for a project without any). */
export const countMirrors =
  (deps: MirrorDeps) =>
  async (req: CountMirrorsRequest__Output): Promise<CountMirrorsResponse> => {
    const projectId = Number(req.projectId);
    if (!Number.isInteger(projectId) || projectId < 1 || projectId > MAX_ID) {
      throw badRequest("project_id is invalid");
    }
    return { count: await deps.prisma.remoteMirror.count({ where: { projectId } }) };
  };
