import { notFound } from "@quarry/grpc";
import type { GetMemberRequest__Output } from "@quarry/proto/types/identity/v1/GetMemberRequest";
import type { Member } from "@quarry/proto/types/identity/v1/Member";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { memberToProto } from "./convert.ts";
import { resolveSource } from "./members-common.ts";

export const getMember =
  (deps: IdentityDeps) =>
  async (req: GetMemberRequest__Output): Promise<Member> => {
    const db = deps.prisma;
    const src = await resolveSource(db, actorOf(req.actor), req.source);
    const sourceIds = req.includeInherited ? src.ancestorGroupIds : [];
    const rows = await db.member.findMany({
      where: {
        userId: Number(req.userId),
        OR: [{ sourceType: src.sourceType, sourceId: src.sourceId }, ...(sourceIds.length ? [{ sourceType: "namespace", sourceId: { in: sourceIds } }] : [])],
      },
      include: { user: true },
      orderBy: { accessLevel: "desc" },
    });
    const row = rows[0];
    if (!row) throw notFound("Member");
    const creator = row.createdById ? await db.user.findUnique({ where: { id: row.createdById } }) : null;
    return memberToProto(row, creator, row.sourceType === "namespace" && row.sourceId !== src.sourceId ? row.sourceId : 0);
  };
