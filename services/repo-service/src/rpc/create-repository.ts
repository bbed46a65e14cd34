import { branchRef } from "@quarry/gitlab";
import { rm } from "node:fs/promises";
import { isUniqueViolation } from "@quarry/database";
import { conflict, paramError } from "@quarry/grpc";
import type { CreateRepositoryRequest__Output } from "@quarry/proto/types/repo/v1/CreateRepositoryRequest";
import type { CreateRepositoryResponse__Output as CreateRepositoryResponse } from "@quarry/proto/types/repo/v1/CreateRepositoryResponse";
import type { Identity__Output } from "@quarry/proto/types/repo/v1/Identity";
import type { Repository } from "../generated/prisma/client.ts";
import { directorySize, headCommitCount } from "../statistics/repository-statistics.ts";
import type { RepoDeps } from "../deps.ts";
import { git, isRepository, NULL_SHA, pathExists, resolveCommit } from "../git/git.ts";
import { refsChanged } from "../git/ref-writes.ts";
import { protectDefaultBranch, protectionChanged } from "../protection/protection.ts";
import { validateBranchName, validateProjectId } from "../validate.ts";

const DEFAULT_BRANCH = "main";

/**
 * Creates the bare repository and records it. The row is inserted first, in a transaction held
 * open while git runs: a concurrent call for the same project or path waits on the unique index
 * and then finds the finished repository (or, if this one failed, creates it itself). Anything
 * failing after `git init` removes the directory again, and the rollback drops the row.
 */
export const createRepository =
  (deps: RepoDeps) =>
  async (req: CreateRepositoryRequest__Output): Promise<CreateRepositoryResponse> => {
    const projectId = validateProjectId(req.projectId);
    deps.storages.resolve(req.diskPath); // checks the path before anything is recorded
    // A new repository goes to a storage chosen by weight (an existing placement is kept).
    await deps.storages.place(req.diskPath, "project", projectId);
    const dir = deps.storages.resolve(req.diskPath);
    const branch = await validateBranchName(req.defaultBranch || DEFAULT_BRANCH);
    const author = req.initializeWithReadme ? validateAuthor(req.author) : null;

    // Two rounds at most: the second follows a stale row (directory gone) or a lost insert race.
    for (let round = 0; ; round++) {
      const existing = await deps.prisma.repository.findFirst({
        where: { OR: [{ projectId }, { diskPath: req.diskPath }] },
      });
      if (existing) {
        const found = await existingRepository(deps, existing, projectId, req.diskPath, dir);
        if (found) return found;
        // Recorded but gone from disk: forget the row and create the repository afresh.
        await deps.prisma.repository.deleteMany({ where: { id: existing.id } });
      }

      let createdDir = false;
      try {
        return await deps.prisma
          .$transaction(
            async (tx) => {
              await tx.repository.create({ data: { projectId, diskPath: req.diskPath, defaultBranch: branch } });
              if (await pathExists(dir)) throw conflict("There is already a repository with that name on disk");
              createdDir = true;
              await git(["init", "--bare", "--quiet", dir]);
              await git(["symbolic-ref", "HEAD", branchRef(branch)], { gitDir: dir });
              const headCommitId = author ? await commitReadme(dir, branch, author, req.projectName, req.projectDescription) : "";
              if (headCommitId) await protectDefaultBranch(tx, deps.defaultBranchProtection, projectId, branch);
              // The first statistics travel with the answer: identity-service stores them with the
              // project in its own transaction (a statistics event could outrun the project's commit).
              return { headCommitId, repositorySize: await directorySize(dir), commitCount: headCommitId ? 1 : 0 };
            },
            { timeout: 60_000, maxWait: 10_000 },
          )
          .finally(() => protectionChanged(projectId));
      } catch (err) {
        if (createdDir) await removeQuietly(deps, dir);
        if (isUniqueViolation(err) && round === 0) continue;
        throw err;
      }
    }
  };

/** The idempotent answer for an already recorded repository, or null when its directory is gone. */
async function existingRepository(deps: RepoDeps, row: Repository, projectId: number, diskPath: string, dir: string): Promise<CreateRepositoryResponse | null> {
  if (row.projectId !== projectId) throw conflict("There is already a repository with that name on disk");
  if (row.diskPath !== diskPath) throw conflict("The project already has a repository at another path");
  if (!(await isRepository(dir))) {
    deps.log.warn({ projectId, diskPath }, "recorded repository is missing on disk; creating it again");
    return null;
  }
  return { headCommitId: await resolveCommit(dir, "HEAD"), repositorySize: await directorySize(dir), commitCount: await headCommitCount(dir) };
}

function validateAuthor(author: Identity__Output | null): { name: string; email: string } {
  if (!author?.name.trim() || !author.email.trim()) throw paramError("author is missing");
  return { name: author.name, email: author.email };
}

export function readmeContent(projectName: string, description: string): string {
  return description ? `# ${projectName}\n\n${description}\n` : `# ${projectName}\n`;
}

/**
 * Writes README.md as the first commit of `branch` without a work tree: blob → tree → commit,
 * then points the branch at it only if it does not exist yet (compare-and-swap with the null sha).
 */
async function commitReadme(
  gitDir: string,
  branch: string,
  author: { name: string; email: string },
  projectName: string,
  description: string,
): Promise<string> {
  const blob = (await git(["hash-object", "-w", "--stdin"], { gitDir, input: readmeContent(projectName, description) })).stdout.trim();
  const tree = (await git(["mktree"], { gitDir, input: `100644 blob ${blob}\tREADME.md\n` })).stdout.trim();
  const env = {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
  };
  const commit = (await git(["commit-tree", "--no-gpg-sign", "-m", "Initial commit", tree], { gitDir, env })).stdout.trim();
  await git(["update-ref", branchRef(branch), commit, NULL_SHA], { gitDir });
  return commit;
}

async function removeQuietly(deps: RepoDeps, dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    refsChanged(dir);
  } catch (err) {
    deps.log.error({ err, dir }, "could not remove a half-created repository");
  }
}
