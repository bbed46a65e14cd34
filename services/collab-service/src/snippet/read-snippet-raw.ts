import { status } from "@grpc/grpc-js";
import { notFound } from "@quarry/grpc";
import type { ReadSnippetRawRequest__Output } from "@quarry/proto/types/collab/v1/ReadSnippetRawRequest";
import type { ReadSnippetRawResponse } from "@quarry/proto/types/collab/v1/ReadSnippetRawResponse";
import type { CollabDeps } from "../deps.ts";
import { relayRefusals } from "../upstream.ts";
import { findSnippet, viewerOf } from "./access.ts";
import { snippetFilePaths } from "./entity.ts";

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/**
 * SnippetsHelpers#content_for (no git_ref: the first file at the default branch, empty for a
 * snippet without files) and #file_content_for (a file at a ref: `404 Reference Not Found` for an
 * unknown ref, `404 File Not Found` for a missing file).
 */
export const readSnippetRaw =
  (deps: CollabDeps) =>
  async (req: ReadSnippetRawRequest__Output): Promise<ReadSnippetRawResponse> => {
    const v = await viewerOf(deps, req.ref?.actor ?? null);
    const { snippet } = await findSnippet(deps, v, Number(req.ref?.snippetId ?? 0), req.ref?.project ?? "");
    if (!req.gitRef) {
      const [first] = await snippetFilePaths(deps, snippet.id);
      if (!first) return { content: Buffer.alloc(0), fileName: "" };
      const file = await relayRefusals(deps.repo.ReadSnippetFile({ snippetId: snippet.id, ref: "", filePath: first }));
      return { content: file.content, fileName: baseName(first) };
    }
    await deps.repo.ListSnippetFiles({ snippetId: snippet.id, ref: req.gitRef }).catch((err: { code?: number }) => {
      throw err.code === status.NOT_FOUND ? notFound("Reference") : err;
    });
    const file = await relayRefusals(deps.repo.ReadSnippetFile({ snippetId: snippet.id, ref: req.gitRef, filePath: req.filePath }));
    return { content: file.content, fileName: baseName(req.filePath) };
  };
