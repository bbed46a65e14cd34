import { pagination } from "@quarry/database";
import type { ListCommitMergeRequestsRequest__Output } from "@quarry/proto/types/collab/v1/ListCommitMergeRequestsRequest";
import type { ListCommitMergeRequestsResponse } from "@quarry/proto/types/collab/v1/ListCommitMergeRequestsResponse";
import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { requireReadMergeRequests, resolveMergeRequestScope } from "./access.ts";
import { mergeRequestInclude, toMergeRequestMessages } from "./entity.ts";

/**
 * GET /projects/:id/repository/commits/:sha/merge_requests (MergeRequest.by_related_commit_sha):
 * the project's merge requests with the commit in any diff version, or merged, squashed or
 * merged-into-target as it; newest first, optionally of one state.
 */
export const listCommitMergeRequests =
  (deps: CollabDeps) =>
  async (req: ListCommitMergeRequestsRequest__Output): Promise<ListCommitMergeRequestsResponse> => {
    const scope = await resolveMergeRequestScope(deps, req.actor, req.project);
    requireReadMergeRequests(scope);
    const sha = req.sha;
    const where: Prisma.MergeRequestWhereInput = {
      projectId: scope.parent.id,
      ...(req.state ? { state: req.state } : {}),
      OR: [{ diffs: { some: { commitShas: { has: sha } } } }, { mergeCommitSha: sha }, { squashCommitSha: sha }, { mergedCommitSha: sha }],
    };
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const [total, rows] = await Promise.all([
      deps.prisma.mergeRequest.count({ where }),
      deps.prisma.mergeRequest.findMany({ where, include: mergeRequestInclude, orderBy: { id: "desc" }, skip: offset, take: limit }),
    ]);
    return {
      mergeRequests: await toMergeRequestMessages(deps, deps.prisma, rows, scope, { listing: true }),
      pageInfo: { total, page: offset / limit + 1, perPage: limit },
    };
  };
