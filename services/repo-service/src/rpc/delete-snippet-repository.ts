import { rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import type { DeleteSnippetRepositoryRequest__Output } from "@quarry/proto/types/repo/v1/DeleteSnippetRepositoryRequest";
import type { DeleteSnippetRepositoryResponse } from "@quarry/proto/types/repo/v1/DeleteSnippetRepositoryResponse";
import type { RepoDeps } from "../deps.ts";
import { snippetDir } from "../writes/snippets.ts";

/**
 * Removes a snippet's repository (missing is not an error): renamed to `<path>+<random>.deleted`
 * first, so it vanishes from its path at once, then removed before the call returns.
 */
export const deleteSnippetRepository =
  (deps: RepoDeps) =>
  async (req: DeleteSnippetRepositoryRequest__Output): Promise<DeleteSnippetRepositoryResponse> => {
    const { diskPath, dir } = snippetDir(deps, req.snippetId);
    deps.catFile.forget(dir); // its processes hold the old directory open
    deps.gitSessions.forget(dir);
    const trash = `${dir}+${randomBytes(6).toString("hex")}.deleted`;
    try {
      await rename(dir, trash);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      await deps.storages.forget(diskPath);
      return {};
    }
    await rm(trash, { recursive: true, force: true, maxRetries: 3 });
    await deps.storages.forget(diskPath);
    return {};
  };
