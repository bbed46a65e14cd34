import type { Snippet } from "@quarry/proto/types/collab/v1/Snippet";
import type { SnippetRef__Output } from "@quarry/proto/types/collab/v1/SnippetRef";
import type { CollabDeps } from "../deps.ts";
import { findSnippet, viewerOf } from "./access.ts";
import { toSnippetMessage } from "./entity.ts";

/** GET /snippets/:id and /projects/:id/snippets/:snippet_id: one readable snippet (`404 Snippet Not Found`). */
export const getSnippet =
  (deps: CollabDeps) =>
  async (req: SnippetRef__Output): Promise<Snippet> => {
    const v = await viewerOf(deps, req.actor);
    const { snippet, project } = await findSnippet(deps, v, Number(req.snippetId), req.project, req.forChange);
    return toSnippetMessage(deps, snippet, project);
  };
