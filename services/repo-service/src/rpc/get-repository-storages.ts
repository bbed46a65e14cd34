import type { GetRepositoryStoragesRequest__Output } from "@quarry/proto/types/repo/v1/GetRepositoryStoragesRequest";
import type { GetRepositoryStoragesResponse } from "@quarry/proto/types/repo/v1/GetRepositoryStoragesResponse";
import type { RepoDeps } from "../deps.ts";

/** The configured storages, and the storage each named repository lives on (GitLab's repository_storage). */
export const getRepositoryStorages =
  (deps: RepoDeps) =>
  async (req: GetRepositoryStoragesRequest__Output): Promise<GetRepositoryStoragesResponse> => {
    const names = req.diskPaths.map((diskPath) => {
      deps.storages.resolve(diskPath); // checks the path
      return deps.storages.storageOf(diskPath);
    });
    return { storages: deps.storages.configs.map((c) => ({ name: c.name, weight: c.weight })), storageNames: names };
  };
