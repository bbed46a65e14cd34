import type { GetRepositoryInfoRequest__Output } from "@quarry/proto/types/repo/v1/GetRepositoryInfoRequest";
import type { GetRepositoryInfoResponse__Output as GetRepositoryInfoResponse } from "@quarry/proto/types/repo/v1/GetRepositoryInfoResponse";
import type { RepoDeps } from "../deps.ts";
import { isRepository, readHeadAndBranches } from "../git/git.ts";

/** Facts read from disk (not from the table), so it also answers for repositories created elsewhere. */
export const getRepositoryInfo =
  (deps: RepoDeps) =>
  async (req: GetRepositoryInfoRequest__Output): Promise<GetRepositoryInfoResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const storageName = deps.storages.storageOf(req.diskPath);
    if (!(await isRepository(dir))) return { exists: false, empty: true, defaultBranch: "", branchCount: 0, storageName };
    const { head, branches } = await readHeadAndBranches(dir);
    return { exists: true, empty: branches.length === 0, defaultBranch: head, branchCount: branches.length, storageName };
  };
