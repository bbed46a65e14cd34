import { conflict, paramError } from "@quarry/grpc";
import type { ScheduleStorageMoveRequest__Output } from "@quarry/proto/types/repo/v1/ScheduleStorageMoveRequest";
import type { StorageMove } from "@quarry/proto/types/repo/v1/StorageMove";
import type { RepoDeps } from "../deps.ts";
import { containerType, toStorageMove } from "../storage/move-entity.ts";
import { scheduleMove } from "../storage/moves.ts";
import { snippetDiskPath } from "../writes/snippets.ts";

/**
 * Schedules the move of one project's repository (with its wiki) or one snippet's repository:
 * see storage/moves.ts's scheduleMove for the checks and their GitLab answers.
 */
export const scheduleStorageMove =
  (deps: RepoDeps) =>
  async (req: ScheduleStorageMoveRequest__Output): Promise<StorageMove> => {
    const type = containerType(req.containerType);
    const containerId = Number(req.containerId);
    if (!Number.isSafeInteger(containerId) || containerId <= 0) throw paramError("container_id does not have a valid value");
    let diskPath: string;
    if (type === "snippet") {
      diskPath = snippetDiskPath(containerId);
    } else {
      if (!req.diskPath) throw paramError("disk_path is missing");
      diskPath = req.diskPath;
      const row = await deps.prisma.repository.findUnique({ where: { diskPath } });
      if (row && row.projectId !== containerId) throw conflict("The repository belongs to another project");
    }
    const move = await scheduleMove(deps, { containerType: type, containerId, diskPath, destination: req.destinationStorageName || undefined });
    return toStorageMove(move);
  };
