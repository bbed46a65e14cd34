import type { CreateMergeRequestContextCommitsResponse } from "@quarry/proto/types/collab/v1/CreateMergeRequestContextCommitsResponse";
import type { MergeRequestContextCommitsRequest__Output } from "@quarry/proto/types/collab/v1/MergeRequestContextCommitsRequest";
import type { CollabDeps } from "../deps.ts";
import {
  CONTEXT_COMMITS_POST_LIMIT,
  contextCommitsError,
  findCommits,
  findContextMergeRequest,
  INVALID_CONTEXT_COMMITS,
  repositoryContextCommit,
} from "./context-commits.ts";

/** Ruby's Array#to_s of strings, as GitLab interpolates the duplicates into its message. */
const rubyArray = (items: string[]) => `[${items.map((s) => JSON.stringify(s)).join(", ")}]`;

/**
 * POST …/context_commits (MergeRequests::AddContextService): at most 20 SHAs; the caller needs
 * update_merge_request; a SHA prefixing an attached commit answers `Context commits: ["<sha>"]
 * are already created`, an unknown one `One or more context commits' sha is not valid.` (both
 * 400, nothing written); otherwise every commit's metadata and trailers are copied, in the order
 * given, all or nothing.
 */
export const createMergeRequestContextCommits =
  (deps: CollabDeps) =>
  async (req: MergeRequestContextCommitsRequest__Output): Promise<CreateMergeRequestContextCommitsResponse> => {
    if (req.commits.length > CONTEXT_COMMITS_POST_LIMIT) {
      throw contextCommitsError(`Context commits array size should not be more than ${CONTEXT_COMMITS_POST_LIMIT}`);
    }
    const { mergeRequest, diskPath, projectPath } = await findContextMergeRequest(deps, req.mergeRequest, true);
    const existing = await deps.prisma.mergeRequestContextCommit.findMany({ where: { mergeRequestId: mergeRequest.id }, select: { sha: true } });
    const duplicates = existing.map((e) => e.sha).filter((sha) => req.commits.some((given) => given !== "" && sha.startsWith(given)));
    if (duplicates.length) throw contextCommitsError(`Context commits: ${rubyArray(duplicates)} are already created`);
    const commits = await findCommits(deps, diskPath, req.commits);
    if (!commits) throw contextCommitsError(INVALID_CONTEXT_COMMITS);
    await deps.prisma.mergeRequestContextCommit.createMany({
      data: commits.map((c, index) => ({
        mergeRequestId: mergeRequest.id,
        sha: c.id,
        relativeOrder: index,
        authorName: c.authorName,
        authorEmail: c.authorEmail,
        authoredDate: new Date(c.authoredDate),
        committerName: c.committerName,
        committerEmail: c.committerEmail,
        committedDate: new Date(c.committedDate),
        message: c.message,
        parentIds: c.parentIds,
        trailers: c.trailers,
      })),
    });
    return { commits: commits.map(repositoryContextCommit), projectPath };
  };
