import { AccessLevel } from "@quarry/gitlab";
import type { ListGroupsRequest__Output } from "@quarry/proto/types/identity/v1/ListGroupsRequest";
import type { ListGroupsResponse } from "@quarry/proto/types/identity/v1/ListGroupsResponse";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf, membershipGroupsWhere, namespaceLevel, visibleGroupsWhere } from "./access.ts";
import { groupToProto } from "./convert.ts";
import { groupSimilarity, groupStatistics, rootStorageStatistics } from "./group-statistics.ts";
import { visibleGroup } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";

const ORDER: Record<string, keyof Prisma.NamespaceOrderByWithRelationInput> = { name: "name", path: "path", id: "id" };

/**
 * GET /groups, GET /groups/:id/subgroups and /descendant_groups. Signed-in non-administrators see
 * the groups they belong to unless all_available; administrators and anonymous callers see all
 * they may see. order_by "similarity" with a search ranks as GitLab's sorted_by_similarity_desc.
 */
export const listGroups =
  (deps: IdentityDeps) =>
  async (req: ListGroupsRequest__Output): Promise<ListGroupsResponse> => {
    const actor = actorOf(req.actor);
    const db = deps.prisma;
    const and: Prisma.NamespaceWhereInput[] = [await visibleGroupsWhere(db, actor)];
    const parentId = Number(req.parentId) || 0;
    if (parentId) {
      await visibleGroup(db, actor, String(parentId)); // 404 for an invisible parent
      // descendant_groups: every group below the parent (traversal_ids hold the parent's id).
      and.push(req.descendants ? { traversalIds: { has: parentId }, NOT: { id: parentId } } : { parentId });
    }
    const allAvailable = req.allAvailable ?? (actor.isAdmin || !actor.userId || parentId > 0);
    const minLevel = req.owned ? AccessLevel.OWNER : Number(req.minAccessLevel) || 0;
    if (actor.userId && (!allAvailable || minLevel)) {
      and.push(await membershipGroupsWhere(db, actor.userId, minLevel || AccessLevel.GUEST));
    }
    if (req.search) {
      and.push({ OR: [{ name: { contains: req.search, mode: "insensitive" } }, { path: { contains: req.search, mode: "insensitive" } }] });
    }
    if (req.topLevelOnly) and.push({ parentId: null });
    if (req.visibility) and.push({ visibility: req.visibility });
    if (req.skipGroups.length) and.push({ id: { notIn: req.skipGroups.map(Number) } });
    // GitLab's CustomAttributesFilter: administrators only, every pair must match.
    if (actor.isAdmin) for (const ca of req.customAttributes) and.push({ customAttributes: { some: { key: ca.key, value: ca.value } } });
    // Quarry cannot archive or schedule the deletion of a group yet: every group is active and
    // none is archived, so these filters keep all or nothing.
    if (req.active === false || req.archived === true) and.push({ id: -1 });
    if (Number(req.idAfter)) and.push({ id: { gt: Number(req.idAfter) } });
    if (Number(req.idBefore)) and.push({ id: { lt: Number(req.idBefore) } });
    if (req.nameAfter !== undefined) {
      and.push({ OR: [{ name: { gt: req.nameAfter } }, { name: req.nameAfter, id: { gt: Number(req.nameAfterId) } }] });
    }
    const where: Prisma.NamespaceWhereInput = { AND: and };
    const dir = req.sort === "desc" ? "desc" : "asc";
    const p = paging(req.page);
    let total: number;
    let rows: Awaited<ReturnType<typeof db.namespace.findMany>>;
    if (req.orderBy === "similarity" && req.search) {
      // Best match first, then deeper groups, then newest (GitLab's sorted_by_similarity_and_parent_id_desc).
      const all = await db.namespace.findMany({ where, select: { id: true, name: true, path: true, parentId: true } });
      const ranked = all
        .map((g) => ({ ...g, score: groupSimilarity(req.search, g) }))
        .sort((a, b) => b.score - a.score || (b.parentId ?? -1) - (a.parentId ?? -1) || b.id - a.id);
      total = ranked.length;
      const ids = ranked.slice(p.skip, p.skip + p.take).map((g) => g.id);
      const byId = new Map((await db.namespace.findMany({ where: { id: { in: ids } } })).map((g) => [g.id, g]));
      rows = ids.map((id) => byId.get(id)!);
    } else {
      [total, rows] = await Promise.all([
        db.namespace.count({ where }),
        db.namespace.findMany({ where, orderBy: [{ [ORDER[req.orderBy] ?? "name"]: dir }, { id: dir }], skip: p.skip, take: p.take }),
      ]);
    }
    const groups = await Promise.all(rows.map(async (g) => groupToProto(g, await namespaceLevel(db, actor.userId, g))));
    if (req.statistics && actor.isAdmin) {
      const own = await groupStatistics(
        db,
        rows.map((g) => g.id),
      );
      const root = await rootStorageStatistics(
        db,
        rows.filter((g) => g.parentId === null).map((g) => g.id),
      );
      for (const g of groups) {
        g.statistics = own.get(Number(g.id)) ?? null;
        g.rootStorageStatistics = root.get(Number(g.id)) ?? null;
      }
    }
    return { groups, pageInfo: pageInfo(total, p) };
  };
