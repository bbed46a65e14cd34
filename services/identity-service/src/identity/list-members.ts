import type { ListMembersRequest__Output } from "@quarry/proto/types/identity/v1/ListMembersRequest";
import type { ListMembersResponse } from "@quarry/proto/types/identity/v1/ListMembersResponse";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { memberToProto } from "./convert.ts";
import { resolveSource } from "./members-common.ts";
import { pageInfo, paging } from "./paging.ts";

/** Direct members, or with include_inherited the effective members (highest level per user wins). */
export const listMembers =
  (deps: IdentityDeps) =>
  async (req: ListMembersRequest__Output): Promise<ListMembersResponse> => {
    const db = deps.prisma;
    const src = await resolveSource(db, actorOf(req.actor), req.source);
    const sources: Prisma.MemberWhereInput[] = [{ sourceType: src.sourceType, sourceId: src.sourceId }];
    if (req.includeInherited && src.ancestorGroupIds.length) {
      sources.push({ sourceType: "namespace", sourceId: { in: src.ancestorGroupIds } });
    }
    const and: Prisma.MemberWhereInput[] = [{ OR: sources }];
    if (req.query) {
      and.push({ user: { OR: [{ username: { contains: req.query, mode: "insensitive" } }, { name: { contains: req.query, mode: "insensitive" } }] } });
    }
    if (req.userIds.length) and.push({ userId: { in: req.userIds.map(Number) } });
    const rows = await db.member.findMany({ where: { AND: and }, include: { user: true }, orderBy: [{ accessLevel: "desc" }, { id: "asc" }] });
    // One row per user: the strongest membership (direct rows win ties).
    const byUser = new Map<number, (typeof rows)[number]>();
    for (const row of rows) {
      const prev = byUser.get(row.userId);
      if (!prev || row.accessLevel > prev.accessLevel) byUser.set(row.userId, row);
    }
    const all = [...byUser.values()].sort((a, b) => a.id - b.id);
    const p = paging(req.page);
    const page = all.slice(p.skip, p.skip + p.take);
    const creators = await db.user.findMany({ where: { id: { in: page.map((m) => m.createdById ?? 0) } } });
    const creatorById = new Map(creators.map((c) => [c.id, c]));
    return {
      members: page.map((m) =>
        memberToProto(m, creatorById.get(m.createdById ?? 0) ?? null, m.sourceType === "namespace" && m.sourceId !== src.sourceId ? m.sourceId : 0),
      ),
      pageInfo: pageInfo(all.length, p),
    };
  };
