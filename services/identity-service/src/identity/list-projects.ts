import { AccessLevel } from "@quarry/gitlab";
import type { ListProjectsRequest__Output } from "@quarry/proto/types/identity/v1/ListProjectsRequest";
import type { ListProjectsResponse } from "@quarry/proto/types/identity/v1/ListProjectsResponse";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf, membershipProjectsWhere, projectLevels, visibleProjectsWhere } from "./access.ts";
import { projectToProto } from "./convert.ts";
import { projectInclude, visibleGroup } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";
import { paramError } from "@quarry/grpc";

const ORDER: Record<string, keyof Prisma.ProjectOrderByWithRelationInput> = {
  id: "id",
  name: "name",
  path: "path",
  created_at: "createdAt",
  updated_at: "updatedAt",
  last_activity_at: "lastActivityAt",
  star_count: "starCount",
};

/** An ISO 8601 time (the gateway has checked its shape); empty → no bound. */
function parseTime(value: string, field: string): Date | null {
  if (!value) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw paramError(`${field} is invalid`);
  return d;
}

export const listProjects =
  (deps: IdentityDeps) =>
  async (req: ListProjectsRequest__Output): Promise<ListProjectsResponse> => {
    const actor = actorOf(req.actor);
    const db = deps.prisma;
    const and: Prisma.ProjectWhereInput[] = [await visibleProjectsWhere(db, actor)];
    const minLevel = Number(req.minAccessLevel) || 0;
    if (actor.userId && (req.membership || minLevel)) {
      and.push(await membershipProjectsWhere(db, actor.userId, minLevel || AccessLevel.GUEST));
    } else if (!actor.userId && (req.membership || minLevel || req.owned)) {
      and.push({ id: -1 }); // anonymous callers are members of nothing
    }
    if (req.owned && actor.userId) and.push({ namespace: { ownerId: actor.userId } });
    const namespaceId = Number(req.namespaceId) || 0;
    if (namespaceId) {
      await visibleGroup(db, actor, String(namespaceId));
      and.push(req.includeSubgroups ? { namespace: { traversalIds: { has: namespaceId } } } : { namespaceId });
    }
    const ownerUserId = Number(req.ownerUserId) || 0;
    if (ownerUserId) and.push({ namespace: { ownerId: ownerUserId } });
    if (req.search) {
      const contains = { contains: req.search, mode: "insensitive" as const };
      and.push({
        OR: [{ name: contains }, { path: contains }, { description: contains }, ...(req.searchNamespaces ? [{ namespace: { fullPath: contains } }] : [])],
      });
    }
    if (req.visibility) and.push({ visibility: req.visibility });
    if (req.archived !== undefined) and.push({ archived: req.archived });
    if (req.topic) and.push({ topics: { hasSome: req.topic.split(",").map((t) => t.trim()) } });
    const starredBy = Number(req.starredByUserId) || 0;
    if (starredBy) and.push({ stars: { some: { userId: starredBy } } });
    if (req.starred) and.push(actor.userId ? { stars: { some: { userId: actor.userId } } } : { id: -1 });
    const updatedAfter = parseTime(req.updatedAfter, "updated_after");
    const updatedBefore = parseTime(req.updatedBefore, "updated_before");
    if (updatedAfter) and.push({ updatedAt: { gte: updatedAfter } });
    if (updatedBefore) and.push({ updatedAt: { lte: updatedBefore } });
    // GitLab's CustomAttributesFilter: administrators only, every pair must match.
    if (actor.isAdmin) for (const ca of req.customAttributes) and.push({ customAttributes: { some: { key: ca.key, value: ca.value } } });
    if (Number(req.idAfter)) and.push({ id: { gt: Number(req.idAfter) } });
    if (Number(req.idBefore)) and.push({ id: { lt: Number(req.idBefore) } });
    const where: Prisma.ProjectWhereInput = { AND: and };
    const dir = req.sort === "asc" ? "asc" : "desc";
    const p = paging(req.page);
    const [total, rows] = await Promise.all([
      db.project.count({ where }),
      db.project.findMany({
        where,
        include: projectInclude,
        orderBy: [{ [ORDER[req.orderBy] ?? "createdAt"]: dir }, { id: dir }],
        skip: p.skip,
        take: p.take,
      }),
    ]);
    const projects = await Promise.all(rows.map(async (row) => projectToProto(row, await projectLevels(db, actor.userId, row))));
    return { projects, pageInfo: pageInfo(total, p) };
  };
