import type { GetStorageMoveRequest__Output } from "@quarry/proto/types/repo/v1/GetStorageMoveRequest";
import type { StorageMove } from "@quarry/proto/types/repo/v1/StorageMove";
import type { RepoDeps } from "../deps.ts";
import { containerType, toStorageMove } from "../storage/move-entity.ts";
import { findMove } from "../storage/moves.ts";

/** One move by id, of the kind (and container, when given); `404 Not Found` otherwise. */
export const getStorageMove =
  (deps: RepoDeps) =>
  async (req: GetStorageMoveRequest__Output): Promise<StorageMove> => {
    const type = containerType(req.containerType);
    const id = Number(req.id);
    return toStorageMove(await findMove(deps, type, id, Number(req.containerId) || undefined));
  };
