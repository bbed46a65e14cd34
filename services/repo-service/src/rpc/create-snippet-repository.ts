import type { CreateSnippetRepositoryRequest__Output } from "@quarry/proto/types/repo/v1/CreateSnippetRepositoryRequest";
import type { CreateSnippetRepositoryResponse__Output as CreateSnippetRepositoryResponse } from "@quarry/proto/types/repo/v1/CreateSnippetRepositoryResponse";
import { branchRef } from "@quarry/gitlab";
import { mkdir, rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { RepoDeps } from "../deps.ts";
import { git, isRepository, pathExists } from "../git/git.ts";
import { refsChanged } from "../git/ref-writes.ts";
import { branchHead } from "../refs/branches.ts";
import { SNIPPET_BRANCH, snippetDir, snippetDiskPath } from "../writes/snippets.ts";

/**
 * Creates a snippet's bare repository at `@snippets/ab/cd/<sha256(id)>.git` with HEAD → main.
 * Idempotent: an existing repository is answered with its head. The repository is initialized
 * in a temporary sibling directory and renamed into place, so a concurrent call never sees a
 * half-made one (the loser of the rename finds the winner's). No database row: the snippet's
 * metadata is the caller's.
 */
export const createSnippetRepository =
  (deps: RepoDeps) =>
  async (req: CreateSnippetRepositoryRequest__Output): Promise<CreateSnippetRepositoryResponse> => {
    // A new snippet repository goes to a storage chosen by weight (an existing placement is kept).
    await deps.storages.place(snippetDiskPath(req.snippetId), "snippet", Number(req.snippetId));
    const { diskPath, dir } = snippetDir(deps, req.snippetId);
    if (!(await isRepository(dir))) {
      if (await pathExists(dir)) throw new Error(`${diskPath} exists but is no repository`);
      await mkdir(path.dirname(dir), { recursive: true });
      const tmp = `${dir}+${randomBytes(6).toString("hex")}.creating`;
      try {
        await git(["init", "--bare", "--quiet", tmp]);
        await git(["symbolic-ref", "HEAD", branchRef(SNIPPET_BRANCH)], { gitDir: tmp });
        await rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
          // Another call made it first (rename onto a non-empty directory fails).
          if (!["ENOTEMPTY", "EEXIST"].includes(err.code ?? "") || !(await isRepository(dir))) throw err;
        });
        refsChanged(dir); // a new repository at this path
      } finally {
        await rm(tmp, { recursive: true, force: true, maxRetries: 3 });
      }
    }
    return { diskPath, headCommitId: await branchHead(dir, SNIPPET_BRANCH) };
  };
