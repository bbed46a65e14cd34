import { notFound } from "@quarry/grpc";
import type { GetFileRequest__Output } from "@quarry/proto/types/repo/v1/GetFileRequest";
import type { RepositoryFile__Output as RepositoryFile } from "@quarry/proto/types/repo/v1/RepositoryFile";
import type { RepoDeps } from "../deps.ts";
import { readFile, validFilePath } from "../git/files.ts";
import { isRepository } from "../git/git.ts";

/**
 * A file at a ref (GET/HEAD of repository files and raw files): metadata, and the content when
 * asked for. Object reads go through the cat-file pool; only the last commit of the path may
 * run `git log`, once per commit and path.
 */
export const getFile =
  (deps: RepoDeps) =>
  async (req: GetFileRequest__Output): Promise<RepositoryFile> => {
    const gitDir = deps.storages.resolve(req.diskPath);
    const filePath = validFilePath(req.filePath);
    if (!(await isRepository(gitDir))) throw notFound("Repository");
    return readFile(deps, { gitDir, filePath, ref: req.ref, withContent: req.withContent });
  };
