import { AccessLevel } from "@quarry/gitlab";
import type { ListGroupsRequest__Output } from "@quarry/proto/types/identity/v1/ListGroupsRequest";
import type { ListGroupsResponse } from "@quarry/proto/types/identity/v1/ListGroupsResponse";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf, membershipGroupsWhere, namespaceLevel, visibleGroupsWhere } from "./access.ts";
import { groupToProto } from "./convert.ts";
import { visibleGroup } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";

const ORDER: Record<string, keyof Prisma.NamespaceOrderByWithRelationInput> = { name: "name", path: "path", id: "id" };

/**
 * GET /groups and GET /groups/:id/subgroups. Signed-in non-administrators see the groups they
 * belong to unless all_available; administrators and anonymous callers see all they may see.
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
      and.push({ parentId });
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
    if (Number(req.idAfter)) and.push({ id: { gt: Number(req.idAfter) } });
    if (Number(req.idBefore)) and.push({ id: { lt: Number(req.idBefore) } });
    const where: Prisma.NamespaceWhereInput = { AND: and };
    const dir = req.sort === "desc" ? "desc" : "asc";
    const p = paging(req.page);
    const [total, rows] = await Promise.all([
      db.namespace.count({ where }),
      db.namespace.findMany({ where, orderBy: [{ [ORDER[req.orderBy] ?? "name"]: dir }, { id: dir }], skip: p.skip, take: p.take }),
    ]);
    const groups = await Promise.all(rows.map(async (g) => groupToProto(g, await namespaceLevel(db, actor.userId, g))));
    return { groups, pageInfo: pageInfo(total, p) };
  };
