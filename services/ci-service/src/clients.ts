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

/** The queue asks identity-service as the system, which sees every project. */
const SYSTEM_ACTOR = { userId: 0, isAdmin: true, system: "ci-service" };
/** Projects per ListProjects page when collecting a group's projects (identity's largest page). */
const GROUP_PAGE = 100;

/** Reads projects as the user who triggered the work sees them. */
export function projectDirectory(address: string, deadlineMs: number): ProjectDirectory & { close(): void } {
  const identity = createClient(identityV1.IdentityService, address, { deadlineMs });
  return {
    async getProject(id, userId) {
      const p = await orNull(identity.GetProject({ actor: { userId, isAdmin: false }, idOrPath: String(id) }));
      return p ? projectFacts(p) : null;
    },
    async groupProjectIds(groupId) {
      // Every project below the group, whoever may see it: the queue's question, not a user's.
      const ids: number[] = [];
      for (let idAfter = 0; ; ) {
        const page = await orNull(
          identity.ListProjects({
            actor: SYSTEM_ACTOR,
            namespaceId: groupId,
            includeSubgroups: true,
            orderBy: "id",
            sort: "asc",
            idAfter,
            page: { page: 1, perPage: GROUP_PAGE },
          }),
        );
        const projects = page?.projects ?? [];
        for (const p of projects) ids.push(Number(p.id));
        if (projects.length < GROUP_PAGE) return ids;
        idAfter = ids[ids.length - 1]!;
      }
    },
    close: () => identity.close(),
  };
}
