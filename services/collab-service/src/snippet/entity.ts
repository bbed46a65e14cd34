import { status } from "@grpc/grpc-js";
import type { Snippet as SnippetMessage } from "@quarry/proto/types/collab/v1/Snippet";
import type { CollabDeps } from "../deps.ts";
import type { Snippet } from "../generated/prisma/client.ts";
import type { SnippetProject } from "./access.ts";

/** A snippet repository's default branch (repo-service's SNIPPET_BRANCH). */
export const SNIPPET_BRANCH = "main";

/** The snippet's file paths at main, in git's order; none when the repository is missing. */
export async function snippetFilePaths(deps: CollabDeps, snippetId: number): Promise<string[]> {
  try {
    const { files } = await deps.repo.ListSnippetFiles({ snippetId, ref: "" });
    return files.map((f) => f.path);
  } catch (err) {
    if ((err as { code?: number }).code === status.NOT_FOUND) return [];
    throw err;
  }
}

/** The row as the gateway's entities need it, with the files read from its repository. */
export async function toSnippetMessage(deps: CollabDeps, s: Snippet, project: SnippetProject | null, files?: string[]): Promise<SnippetMessage> {
  const paths = files ?? (await snippetFilePaths(deps, s.id));
  return {
    id: s.id,
    projectId: s.projectId ?? 0,
    projectPath: project?.path ?? "",
    authorId: s.authorId,
    title: s.title,
    description: s.description ?? undefined,
    visibility: s.visibility,
    // Entities::Snippet#file_name: the first file on the repository, else the column.
    fileName: paths[0] ?? s.fileName ?? "",
    files: paths,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    diskPath: s.diskPath,
    defaultBranch: SNIPPET_BRANCH,
  };
}
