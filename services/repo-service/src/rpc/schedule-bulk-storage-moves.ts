import { paramError } from "@quarry/grpc";
import type { ScheduleBulkStorageMovesRequest__Output } from "@quarry/proto/types/repo/v1/ScheduleBulkStorageMovesRequest";
import type { ScheduleBulkStorageMovesResponse } from "@quarry/proto/types/repo/v1/ScheduleBulkStorageMovesResponse";
import type { RepoDeps } from "../deps.ts";
import { containerType } from "../storage/move-entity.ts";
import { scheduleBulkMoves } from "../storage/moves.ts";

/**
 * GitLab's ScheduleBulkRepositoryShardMovesService: a move for every project or snippet repository
 * recorded on the source storage. Both names must be configured storages (Grape's `values`:
 * `source_storage_name does not have a valid value`).
 */
export const scheduleBulkStorageMoves =
  (deps: RepoDeps) =>
  async (req: ScheduleBulkStorageMovesRequest__Output): Promise<ScheduleBulkStorageMovesResponse> => {
    const type = containerType(req.containerType);
    if (!req.sourceStorageName) throw paramError("source_storage_name is missing");
    if (!deps.storages.has(req.sourceStorageName)) throw paramError("source_storage_name does not have a valid value");
    if (req.destinationStorageName && !deps.storages.has(req.destinationStorageName)) throw paramError("destination_storage_name does not have a valid value");
    const scheduled = await scheduleBulkMoves(deps, {
      containerType: type,
      source: req.sourceStorageName,
      destination: req.destinationStorageName || undefined,
    });
    return { scheduled };
  };
