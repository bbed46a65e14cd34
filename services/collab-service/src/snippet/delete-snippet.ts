import { unauthenticated } from "@quarry/grpc";
import type { Empty } from "@quarry/proto/types/collab/v1/Empty";
import type { SnippetRef__Output } from "@quarry/proto/types/collab/v1/SnippetRef";
import type { CollabDeps } from "../deps.ts";
import { findSnippet, requireChange, viewerOf } from "./access.ts";

/** The noteable/awardable type of snippets. */
export const SNIPPET_TYPE = "Snippet";

/**
 * Snippets::DestroyService: the snippet (found as for an update, changeable by its author, a
 * Maintainer of its project or an administrator), its notes and award emoji (the notes' too) go
 * in one transaction; then its repository.
 */
export const deleteSnippet =
  (deps: CollabDeps) =>
  async (req: SnippetRef__Output): Promise<Empty> => {
    const v = await viewerOf(deps, req.actor);
    if (v.userId <= 0 && !v.isAdmin) throw unauthenticated();
    const found = await findSnippet(deps, v, Number(req.snippetId), req.project, true);
    requireChange(v, found);
    const id = found.snippet.id;
    await deps.prisma.$transaction(async (tx) => {
      const notes = await tx.note.findMany({ where: { noteableType: SNIPPET_TYPE, noteableId: id }, select: { id: true } });
      await tx.awardEmoji.deleteMany({
        where: {
          OR: [
            { awardableType: SNIPPET_TYPE, awardableId: id },
            { awardableType: "Note", awardableId: { in: notes.map((n) => n.id) } },
          ],
        },
      });
      await tx.note.deleteMany({ where: { noteableType: SNIPPET_TYPE, noteableId: id } });
      await tx.snippet.delete({ where: { id } });
    });
    await deps.repo.DeleteSnippetRepository({ snippetId: id });
    return {};
  };
