import { pagination } from "@quarry/database";
import type { ListLabelsRequest__Output } from "@quarry/proto/types/collab/v1/ListLabelsRequest";
import type { ListLabelsResponse } from "@quarry/proto/types/collab/v1/ListLabelsResponse";
import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { withIssueCounts } from "../issue/label-counts.ts";
import { toLabelMessages } from "./entity.ts";
import { availableLabelsWhere, resolveParent } from "./parent.ts";
import { labelSearchWhere } from "./search.ts";

/** GitLab's get_labels: the parent's available labels by title, searched and paginated. */
export const listLabels =
  (deps: CollabDeps) =>
  async (req: ListLabelsRequest__Output): Promise<ListLabelsResponse> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    const search = labelSearchWhere(req.search);
    const where: Prisma.LabelWhereInput = { AND: [availableLabelsWhere(parent, req.includeAncestorGroups), ...(search ? [search] : [])] };
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const [total, rows] = await Promise.all([
      deps.prisma.label.count({ where }),
      deps.prisma.label.findMany({ where, orderBy: [{ title: "asc" }, { id: "asc" }], skip: offset, take: limit }),
    ]);
    return {
      // The issue counts are what with_counts shows (the gateway leaves them out otherwise).
      labels: await withIssueCounts(deps, req.actor, parent, await toLabelMessages(deps.prisma, parent, rows)),
      pageInfo: { total, page: offset / limit + 1, perPage: limit },
    };
  };
