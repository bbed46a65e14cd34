import { randomBytes } from "node:crypto";
import { rename, rm } from "node:fs/promises";
import { conflict } from "@quarry/grpc";
import type { DeleteRepositoryRequest__Output } from "@quarry/proto/types/repo/v1/DeleteRepositoryRequest";
import type { DeleteRepositoryResponse } from "@quarry/proto/types/repo/v1/DeleteRepositoryResponse";
import type { RepoDeps } from "../deps.ts";
import { protectionChanged } from "../protection/protection.ts";

/**
 * Removes the repository and its row; a missing one is not an error. The directory is first
 * renamed to `<path>+<id>.deleted` (it vanishes from its path atomically, so no reader sees a
 * half-deleted repository), then removed before the call returns.
 */
export const deleteRepository =
  (deps: RepoDeps) =>
  async (req: DeleteRepositoryRequest__Output): Promise<DeleteRepositoryResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const row = await deps.prisma.repository.findUnique({ where: { diskPath: req.diskPath } });
    if (row && req.projectId && row.projectId !== req.projectId) {
      throw conflict("The repository belongs to another project");
    }
    const trash = `${dir}+${row?.id ?? randomBytes(6).toString("hex")}.deleted`;
    await rm(trash, { recursive: true, force: true, maxRetries: 3 }); // leftover of an interrupted call
    deps.catFile.forget(dir); // its processes hold the old directory open
    deps.gitSessions.forget(dir);
    try {
      await rename(dir, trash);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    await rm(trash, { recursive: true, force: true, maxRetries: 3 });
    await deps.storages.forget(req.diskPath);
    if (row) {
      await deps.prisma
        .$transaction([
          deps.prisma.protectedBranch.deleteMany({ where: { projectId: row.projectId } }),
          deps.prisma.repository.deleteMany({ where: { id: row.id } }),
        ])
        .finally(() => protectionChanged(row.projectId));
    }
    return {};
  };
