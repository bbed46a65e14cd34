import { pagination } from "@quarry/database";
import type { ListMergeRequestContextCommitsRequest__Output } from "@quarry/proto/types/collab/v1/ListMergeRequestContextCommitsRequest";
import type { ListMergeRequestContextCommitsResponse } from "@quarry/proto/types/collab/v1/ListMergeRequestContextCommitsResponse";
import type { CollabDeps } from "../deps.ts";
import { findContextMergeRequest, storedContextCommit } from "./context-commits.ts";

/** GET …/context_commits: the stored copies, in attach order, one page. */
export const listMergeRequestContextCommits =
  (deps: CollabDeps) =>
  async (req: ListMergeRequestContextCommitsRequest__Output): Promise<ListMergeRequestContextCommitsResponse> => {
    const { mergeRequest, projectPath } = await findContextMergeRequest(deps, req.mergeRequest, false);
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const where = { mergeRequestId: mergeRequest.id };
    const [total, rows] = await Promise.all([
      deps.prisma.mergeRequestContextCommit.count({ where }),
      deps.prisma.mergeRequestContextCommit.findMany({ where, orderBy: { id: "asc" }, skip: offset, take: limit }),
    ]);
    return { commits: rows.map(storedContextCommit), pageInfo: { total, page: offset / limit + 1, perPage: limit }, projectPath };
  };
