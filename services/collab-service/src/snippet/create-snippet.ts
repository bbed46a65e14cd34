import { AccessLevel } from "@quarry/gitlab";
import { forbidden, unauthenticated } from "@quarry/grpc";
import type { CreateSnippetRequest__Output } from "@quarry/proto/types/collab/v1/CreateSnippetRequest";
import type { Snippet } from "@quarry/proto/types/collab/v1/Snippet";
import type { CollabDeps } from "../deps.ts";
import { relayRefusals } from "../upstream.ts";
import { readableProject, viewerOf } from "./access.ts";
import { toSnippetMessage } from "./entity.ts";
import { createActions, validTitle, validVisibility } from "./files.ts";

/**
 * Snippets::CreateService: a personal snippet needs a signed-in, non-external user (GlobalPolicy's
 * create_snippet); a project snippet a readable project and Reporter or above (403). The id is
 * drawn first, the repository created and the "Initial commit" written; only then is the row
 * inserted, so a refused commit (repo-service's `Repository Error creating the snippet`) leaves
 * neither a row nor a repository behind.
 */
export const createSnippet =
  (deps: CollabDeps) =>
  async (req: CreateSnippetRequest__Output): Promise<Snippet> => {
    const v = await viewerOf(deps, req.actor);
    if (v.userId <= 0 && !v.isAdmin) throw unauthenticated();
    const project = req.project ? await readableProject(deps, v, req.project) : null;
    if (!v.isAdmin && (project ? project.accessLevel < AccessLevel.REPORTER : v.external)) throw forbidden();
    const title = validTitle(req.title);
    const visibility = validVisibility(req.visibility || (project ? "" : "internal"));
    const actions = createActions(req.files, req.fileName ?? undefined, req.content ?? undefined);

    const id = (await deps.prisma.$queryRaw<{ id: number }[]>`SELECT nextval(pg_get_serial_sequence('snippets', 'id'))::int AS id`)[0]!.id;
    try {
      const repo = await relayRefusals(deps.repo.CreateSnippetRepository({ snippetId: id }));
      await relayRefusals(deps.repo.CommitSnippetFiles({ snippetId: id, user: { name: v.name || "Administrator", email: v.email }, actions }));
      const row = await deps.prisma.snippet.create({
        data: {
          id,
          projectId: project?.id ?? null,
          authorId: v.userId,
          title,
          description: req.description ?? null,
          visibility,
          fileName: actions[0]?.filePath || null,
          diskPath: repo.diskPath,
        },
      });
      return await toSnippetMessage(deps, row, project);
    } catch (err) {
      // No partial writes: the repository of a snippet that was not recorded goes too.
      await deps.repo
        .DeleteSnippetRepository({ snippetId: id })
        .catch((e: unknown) => deps.log.warn({ err: e, snippetId: id }, "snippet repository cleanup failed"));
      await deps.prisma.snippet.deleteMany({ where: { id } });
      throw err;
    }
  };
