// The other services ci-service reads from, behind the narrow interfaces of deps.ts.
import { createClient, isNotFound } from "@quarry/grpc";
import { identityV1, repoV1 } from "@quarry/proto";
import { projectFacts, type ProjectDirectory, type RepositoryReader } from "./deps.ts";

const orNull = <T>(promise: Promise<T>): Promise<T | null> =>
  promise.catch((err: unknown) => {
    if (isNotFound(err)) return null;
    throw err;
  });

export function repositoryReader(address: string, deadlineMs: number): RepositoryReader & { close(): void } {
  const repo = createClient(repoV1.RepoService, address, { deadlineMs });
  return {
    async readFile(diskPath, revision, filePath) {
      const file = await orNull(repo.GetFile({ diskPath, filePath, ref: revision, withContent: true }));
      return file ? file.content.toString("utf8") : null;
    },
    async findCommit(diskPath, revision) {
      const c = await orNull(repo.FindCommit({ diskPath, revision, stats: false }));
      if (!c?.commit) return null;
      const { commit } = c;
      return {
        sha: commit.id,
        title: commit.title,
        message: commit.message,
        authorName: commit.authorName,
        authorEmail: commit.authorEmail,
        committedDate: commit.committedDate,
      };
    },
    close: () => repo.close(),
  };
}

/** Reads projects as the user who triggered the work sees them. */
export function projectDirectory(address: string, deadlineMs: number): ProjectDirectory & { close(): void } {
  const identity = createClient(identityV1.IdentityService, address, { deadlineMs });
  return {
    async getProject(id, userId) {
      const p = await orNull(identity.GetProject({ actor: { userId, isAdmin: false }, idOrPath: String(id) }));
      return p ? projectFacts(p) : null;
    },
    close: () => identity.close(),
  };
}
