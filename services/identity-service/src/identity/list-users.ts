import type { ListUsersRequest__Output } from "@quarry/proto/types/identity/v1/ListUsersRequest";
import type { ListUsersResponse } from "@quarry/proto/types/identity/v1/ListUsersResponse";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { userToProto } from "./convert.ts";
import { pageInfo, paging } from "./paging.ts";
import { userInclude } from "./users-common.ts";

const ORDERABLE = new Set(["id", "name", "username", "created_at", "updated_at"]);
const COLUMN: Record<string, keyof Prisma.UserOrderByWithRelationInput> = {
  id: "id",
  name: "name",
  username: "usernameLower",
  created_at: "createdAt",
  updated_at: "updatedAt",
};

export const listUsers =
  (deps: IdentityDeps) =>
  async (req: ListUsersRequest__Output): Promise<ListUsersResponse> => {
    const actor = actorOf(req.actor);
    const and: Prisma.UserWhereInput[] = [];
    if (req.username) and.push({ usernameLower: req.username.toLowerCase() });
    if (req.search) {
      const contains = { contains: req.search, mode: "insensitive" as const };
      and.push({
        OR: [
          { name: contains },
          { username: contains },
          { publicEmail: { equals: req.search, mode: "insensitive" } },
          // Private e-mail search is for administrators only.
          ...(actor.isAdmin ? [{ email: { equals: req.search.toLowerCase() } }] : []),
        ],
      });
    }
    if (req.active) and.push({ state: "active" });
    if (req.blocked) and.push({ state: "blocked" });
    if (req.external) and.push({ external: true });
    if (req.admins && actor.isAdmin) and.push({ isAdmin: true });
    if (req.createdAfter) and.push({ createdAt: { gt: new Date(req.createdAfter) } });
    if (req.createdBefore) and.push({ createdAt: { lt: new Date(req.createdBefore) } });
    if (Number(req.idAfter)) and.push({ id: { gt: Number(req.idAfter) } });
    if (Number(req.idBefore)) and.push({ id: { lt: Number(req.idBefore) } });
    // Identity lookup is for administrators (the gateway answers 403 to others before asking).
    if (req.provider && req.externUid && actor.isAdmin) {
      and.push({ identities: { some: { provider: req.provider, externUid: { equals: req.externUid, mode: "insensitive" } } } });
    }
    const where: Prisma.UserWhereInput = and.length ? { AND: and } : {};
    // Non-administrators can only order by id (GitLab ignores order_by for them).
    const orderKey = actor.isAdmin && ORDERABLE.has(req.orderBy) ? req.orderBy : "id";
    const direction = req.sort === "asc" ? "asc" : "desc";
    const p = paging(req.page);
    const [total, users] = await Promise.all([
      deps.prisma.user.count({ where }),
      deps.prisma.user.findMany({
        where,
        orderBy: [{ [COLUMN[orderKey]!]: direction }, { id: direction }],
        skip: p.skip,
        take: p.take,
        include: userInclude,
      }),
    ]);
    return { users: users.map(userToProto), pageInfo: pageInfo(total, p) };
  };
