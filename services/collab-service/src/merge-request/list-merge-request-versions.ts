import { pagination } from "@quarry/database";
import type { ListMergeRequestVersionsRequest__Output } from "@quarry/proto/types/collab/v1/ListMergeRequestVersionsRequest";
import type { ListMergeRequestVersionsResponse } from "@quarry/proto/types/collab/v1/ListMergeRequestVersionsResponse";
import type { CollabDeps } from "../deps.ts";
import { findVisibleMergeRequest } from "./access.ts";
import { toVersionMessage } from "./versions.ts";

/** GET …/merge_requests/:merge_request_iid/versions: the merge request's diff versions, newest first, paginated. */
export const listMergeRequestVersions =
  (deps: CollabDeps) =>
  async (req: ListMergeRequestVersionsRequest__Output): Promise<ListMergeRequestVersionsResponse> => {
    const { mr } = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const where = { mergeRequestId: mr.id };
    const [total, rows] = await Promise.all([
      deps.prisma.mergeRequestDiff.count({ where }),
      deps.prisma.mergeRequestDiff.findMany({ where, orderBy: { id: "desc" }, skip: offset, take: limit }),
    ]);
    return { versions: rows.map(toVersionMessage), pageInfo: { total, page: offset / limit + 1, perPage: limit } };
  };
