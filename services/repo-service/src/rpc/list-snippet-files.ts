import { notFound } from "@quarry/grpc";
import type { ListSnippetFilesRequest__Output } from "@quarry/proto/types/repo/v1/ListSnippetFilesRequest";
import type { ListSnippetFilesResponse__Output as ListSnippetFilesResponse } from "@quarry/proto/types/repo/v1/ListSnippetFilesResponse";
import type { RepoDeps } from "../deps.ts";
import { resolveRef } from "../git/files.ts";
import { hasBranches, isRepository } from "../git/git.ts";
import { SNIPPET_BRANCH, snippetDir, snippetFiles } from "../writes/snippets.ts";

/** Resolves a snippet read's ref (empty = main) to a commit; "" for an empty repository read at main. */
export async function snippetCommit(deps: RepoDeps, dir: string, ref: string): Promise<string> {
  if (!(await isRepository(dir))) throw notFound("Repository");
  if (ref.startsWith("-")) throw notFound("Ref");
  const commit = await resolveRef(deps, dir, ref || SNIPPET_BRANCH);
  if (commit) return commit;
  if (!ref && !(await hasBranches(dir))) return "";
  throw notFound("Ref");
}

/** The files of a snippet at a ref (every blob of the tree, one `git ls-tree -r`). */
export const listSnippetFiles =
  (deps: RepoDeps) =>
  async (req: ListSnippetFilesRequest__Output): Promise<ListSnippetFilesResponse> => {
    const { dir } = snippetDir(deps, req.snippetId);
    const commitId = await snippetCommit(deps, dir, req.ref);
    const files = await snippetFiles(dir, commitId);
    return { commitId, files: files.map((f) => ({ path: f.path, blobId: f.blobId, size: f.size })) };
  };
