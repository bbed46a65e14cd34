import type { ListStorageMovesRequest__Output } from "@quarry/proto/types/repo/v1/ListStorageMovesRequest";
import type { ListStorageMovesResponse } from "@quarry/proto/types/repo/v1/ListStorageMovesResponse";
import type { RepoDeps } from "../deps.ts";
import { containerType, toStorageMove } from "../storage/move-entity.ts";

/** Moves of a kind (optionally of one container), newest first (GitLab's order_created_at_desc), one page. */
export const listStorageMoves =
  (deps: RepoDeps) =>
  async (req: ListStorageMovesRequest__Output): Promise<ListStorageMovesResponse> => {
    const type = containerType(req.containerType);
    const perPage = Math.min(Math.max(req.perPage || 20, 1), 100);
    const page = Math.max(req.page || 1, 1);
    const where = { containerType: type, ...(Number(req.containerId) > 0 ? { containerId: Number(req.containerId) } : {}) };
    const [moves, total] = await Promise.all([
      deps.prisma.repositoryStorageMove.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: (page - 1) * perPage, take: perPage }),
      deps.prisma.repositoryStorageMove.count({ where }),
    ]);
    return { moves: moves.map(toStorageMove), total };
  };
