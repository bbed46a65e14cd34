import type { ListMirrorsRequest__Output } from "@quarry/proto/types/mirror/v1/ListMirrorsRequest";
import type { ListMirrorsResponse } from "@quarry/proto/types/mirror/v1/ListMirrorsResponse";
import type { MirrorDeps } from "../deps.ts";
import { projectIdOf, toMirrorMessage } from "./entity.ts";

/** A project's mirrors, oldest first, a page at a time (default 20). */
export const listMirrors =
  (deps: MirrorDeps) =>
  async (req: ListMirrorsRequest__Output): Promise<ListMirrorsResponse> => {
    const projectId = projectIdOf(req.projectId);
    const perPage = Math.min(Math.max(req.perPage || 20, 1), 100);
    const page = Math.max(req.page || 1, 1);
    const [rows, total] = await Promise.all([
      deps.prisma.remoteMirror.findMany({ where: { projectId }, orderBy: { id: "asc" }, skip: (page - 1) * perPage, take: perPage }),
      deps.prisma.remoteMirror.count({ where: { projectId } }),
    ]);
    return { mirrors: rows.map((r) => toMirrorMessage(deps, r)), total };
  };
