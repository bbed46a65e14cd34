import type { CollabDeps } from "../deps.ts";
import { SNIPPET_TYPE } from "./delete-snippet.ts";

/**
 * A deleted project's snippets go with it (GitLab destroys project snippets with their project):
 * the rows, their notes and award emoji (the notes' too) in one transaction, then their
 * repositories. Idempotent: a redelivered event finds nothing left. To be called from the
 * project_destroy consumer (src/events/project-destroy.ts).
 */
export async function forgetProjectSnippets(deps: CollabDeps, projectId: number): Promise<void> {
  await forgetSnippets(
    deps,
    (await deps.prisma.snippet.findMany({ where: { projectId }, select: { id: true } })).map((s) => s.id),
  );
}

/** Snippets by id (project or personal), with their notes and award emoji, then their repositories. */
export async function forgetSnippets(deps: CollabDeps, snippetIds: number[]): Promise<void> {
  if (!snippetIds.length) return;
  const ids = await deps.prisma.$transaction(async (tx) => {
    const noteIds = (await tx.note.findMany({ where: { noteableType: SNIPPET_TYPE, noteableId: { in: snippetIds } }, select: { id: true } })).map((n) => n.id);
    await tx.awardEmoji.deleteMany({
      where: {
        OR: [
          { awardableType: SNIPPET_TYPE, awardableId: { in: snippetIds } },
          { awardableType: "Note", awardableId: { in: noteIds } },
        ],
      },
    });
    await tx.note.deleteMany({ where: { noteableType: SNIPPET_TYPE, noteableId: { in: snippetIds } } });
    await tx.snippet.deleteMany({ where: { id: { in: snippetIds } } });
    return snippetIds;
  });
  // A repository left behind by a failure here is unreachable (no row names it) and harmless.
  for (const snippetId of ids) {
    await deps.repo.DeleteSnippetRepository({ snippetId }).catch((err: unknown) => deps.log.warn({ err, snippetId }, "snippet repository removal failed"));
  }
}
