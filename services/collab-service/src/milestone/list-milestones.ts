import { pagination } from "@quarry/database";
import type { ListMilestonesRequest__Output } from "@quarry/proto/types/collab/v1/ListMilestonesRequest";
import type { ListMilestonesResponse } from "@quarry/proto/types/collab/v1/ListMilestonesResponse";
import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { resolveParent } from "../label/parent.ts";
import { fuzzySearchWhere } from "../label/search.ts";
import { toMilestoneMessages } from "./entity.ts";
import { ownMilestonesWhere } from "./rules.ts";

/**
 * GitLab's list_milestones_for (MilestonesFinder): the parent's milestones (and its groups' with
 * include_ancestors); iids among the parent's own; exact title; search; state; updated bounds;
 * ordered by due date (none last), then newest first.
 */
export const listMilestones =
  (deps: CollabDeps) =>
  async (req: ListMilestonesRequest__Output): Promise<ListMilestonesResponse> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    const own = ownMilestonesWhere(parent);
    const filters: Prisma.MilestoneWhereInput[] = [
      req.includeAncestors && parent.ancestorGroupIds.length ? { OR: [own, { groupId: { in: parent.ancestorGroupIds } }] } : own,
    ];
    if (req.iids.length) filters.push({ ...own, iid: { in: req.iids.map(Number) } });
    if (req.title !== undefined) filters.push({ title: req.title });
    const search = fuzzySearchWhere(req.search);
    if (search) filters.push(search as Prisma.MilestoneWhereInput);
    if (req.state === "active" || req.state === "closed") filters.push({ state: req.state });
    if (req.updatedBefore) filters.push({ updatedAt: { lt: new Date(req.updatedBefore) } });
    if (req.updatedAfter) filters.push({ updatedAt: { gt: new Date(req.updatedAfter) } });
    const where: Prisma.MilestoneWhereInput = { AND: filters };
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const [total, rows] = await Promise.all([
      deps.prisma.milestone.count({ where }),
      deps.prisma.milestone.findMany({ where, orderBy: [{ dueDate: { sort: "asc", nulls: "last" } }, { id: "desc" }], skip: offset, take: limit }),
    ]);
    return { milestones: await toMilestoneMessages(deps, parent, rows), pageInfo: { total, page: offset / limit + 1, perPage: limit } };
  };
