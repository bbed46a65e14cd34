import { unauthenticated } from "@quarry/grpc";
import type { Snippet } from "@quarry/proto/types/collab/v1/Snippet";
import type { UpdateSnippetRequest__Output } from "@quarry/proto/types/collab/v1/UpdateSnippetRequest";
import type { CollabDeps } from "../deps.ts";
import { relayRefusals } from "../upstream.ts";
import { findSnippet, requireChange, viewerOf } from "./access.ts";
import { snippetFilePaths, toSnippetMessage } from "./entity.ts";
import { updateActions, validTitle, validVisibility } from "./files.ts";

/**
 * Snippets::UpdateService: the snippet must be found (on /snippets/:id among the caller's own) and
 * changeable (author, Maintainer of its project, administrator; 403). The file changes are one
 * "Update snippet" commit; the row changes only after it succeeded, so a refused commit
 * (`Repository Error updating the snippet`) changes nothing.
 */
export const updateSnippet =
  (deps: CollabDeps) =>
  async (req: UpdateSnippetRequest__Output): Promise<Snippet> => {
    const v = await viewerOf(deps, req.ref?.actor ?? null);
    if (v.userId <= 0 && !v.isAdmin) throw unauthenticated();
    const found = await findSnippet(deps, v, Number(req.ref?.snippetId ?? 0), req.ref?.project ?? "", true);
    requireChange(v, found);
    const title = req.title === undefined || req.title === null ? undefined : validTitle(req.title);
    const visibility = req.visibility === undefined || req.visibility === null ? undefined : validVisibility(req.visibility);
    const id = found.snippet.id;
    const legacy = req.content != null || req.fileName != null;
    const current = legacy ? await snippetFilePaths(deps, id) : [];
    const actions = updateActions(req.files, req.fileName ?? undefined, req.content ?? undefined, current);

    let files: string[] | undefined;
    if (actions.length) {
      await relayRefusals(deps.repo.CommitSnippetFiles({ snippetId: id, user: { name: v.name || "Administrator", email: v.email }, actions }));
      files = await snippetFilePaths(deps, id);
    }
    const row = await deps.prisma.snippet.update({
      where: { id },
      data: {
        ...(title !== undefined ? { title } : {}),
        ...(req.description != null ? { description: req.description } : {}),
        ...(visibility !== undefined ? { visibility } : {}),
        ...(files?.[0] ? { fileName: files[0] } : {}),
      },
    });
    const message = await toSnippetMessage(deps, row, found.project, files);
    return message;
  };
