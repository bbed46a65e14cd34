import type { ListClientKeysResponse } from "@quarry/proto/types/errortracking/v1/ListClientKeysResponse";
import type { ListRequest__Output } from "@quarry/proto/types/errortracking/v1/ListRequest";
import { idOf, pageOf, toClientKeyMessage } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";

/** A project's client keys, oldest first, a page at a time. */
export const listClientKeys =
  (deps: ErrorTrackingDeps) =>
  async (req: ListRequest__Output): Promise<ListClientKeysResponse> => {
    const projectId = idOf(req.projectId);
    const [rows, total] = await Promise.all([
      deps.prisma.errorTrackingClientKey.findMany({ where: { projectId }, orderBy: { id: "asc" }, ...pageOf(req) }),
      deps.prisma.errorTrackingClientKey.count({ where: { projectId } }),
    ]);
    return { keys: rows.map(toClientKeyMessage), total };
  };
