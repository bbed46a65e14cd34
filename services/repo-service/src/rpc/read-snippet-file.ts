import { notFound } from "@quarry/grpc";
import type { ReadSnippetFileRequest__Output } from "@quarry/proto/types/repo/v1/ReadSnippetFileRequest";
import type { ReadSnippetFileResponse__Output as ReadSnippetFileResponse } from "@quarry/proto/types/repo/v1/ReadSnippetFileResponse";
import type { RepoDeps } from "../deps.ts";
import { validFilePath } from "../git/files.ts";
import { snippetDir } from "../writes/snippets.ts";
import { snippetCommit } from "./list-snippet-files.ts";

/**
 * The raw bytes of one snippet file at a ref (empty = main), read through the cat-file pool as
 * GetFile reads a raw file; a missing path (or ref) → `404 File Not Found`.
 */
export const readSnippetFile =
  (deps: RepoDeps) =>
  async (req: ReadSnippetFileRequest__Output): Promise<ReadSnippetFileResponse> => {
    const { dir } = snippetDir(deps, req.snippetId);
    const filePath = validFilePath(req.filePath);
    const commitId = await snippetCommit(deps, dir, req.ref).catch((err: unknown) => {
      throw (err as Error).message?.includes("Ref") ? notFound("File") : err;
    });
    if (!commitId) throw notFound("File");
    // `<commit>:<path>` names a tree entry (a path through the trees only; validFilePath refuses ./ and ../).
    const blob = await deps.catFile.read(dir, `${commitId}:${filePath}`);
    if (blob?.type !== "blob") throw notFound("File");
    return { content: blob.data, blobId: blob.oid, commitId };
  };
