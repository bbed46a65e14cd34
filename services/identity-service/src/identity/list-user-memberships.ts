import { notFound, paramError } from "@quarry/grpc";
import type { ListUserMembershipsRequest__Output } from "@quarry/proto/types/identity/v1/ListUserMembershipsRequest";
import type { ListUserMembershipsResponse } from "@quarry/proto/types/identity/v1/ListUserMembershipsResponse";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { requireAdmin } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";

const TYPES: Record<string, string> = { Project: "project", Namespace: "namespace" };

/**
 * GET /users/:user_id/memberships: the user's direct memberships (GitLab's user.members, or
 * project_members / group_members by `type`) as Entities::Membership, oldest first.
 */
export const listUserMemberships =
  (deps: IdentityDeps) =>
  async (req: ListUserMembershipsRequest__Output): Promise<ListUserMembershipsResponse> => {
    const actor = actorOf(req.actor);
    requireAdmin(actor);
    if (req.type && !TYPES[req.type]) throw paramError("type does not have a valid value");
    const user = await deps.prisma.user.findUnique({ where: { id: Number(req.userId) }, select: { id: true } });
    if (!user) throw notFound("User");
    const where: Prisma.MemberWhereInput = { userId: user.id, ...(req.type ? { sourceType: TYPES[req.type] } : {}) };
    const p = paging(req.page);
    const [total, rows] = await Promise.all([
      deps.prisma.member.count({ where }),
      deps.prisma.member.findMany({ where, orderBy: { id: "asc" }, skip: p.skip, take: p.take }),
    ]);
    const projectIds = rows.filter((m) => m.sourceType === "project").map((m) => m.sourceId);
    const groupIds = rows.filter((m) => m.sourceType === "namespace").map((m) => m.sourceId);
    const [projects, groups] = await Promise.all([
      deps.prisma.project.findMany({ where: { id: { in: projectIds } }, select: { id: true, name: true } }),
      deps.prisma.namespace.findMany({ where: { id: { in: groupIds } }, select: { id: true, name: true } }),
    ]);
    const names = new Map<string, string>([
      ...projects.map((x) => [`project:${x.id}`, x.name] as const),
      ...groups.map((x) => [`namespace:${x.id}`, x.name] as const),
    ]);
    return {
      memberships: rows.map((m) => ({
        sourceId: m.sourceId,
        sourceName: names.get(`${m.sourceType}:${m.sourceId}`) ?? "",
        sourceType: m.sourceType === "project" ? "Project" : "Namespace",
        accessLevel: m.accessLevel,
      })),
      pageInfo: pageInfo(total, p),
    };
  };
