import { conflict, notFound, paramError } from "@quarry/grpc";
import type { AddMemberRequest__Output } from "@quarry/proto/types/identity/v1/AddMemberRequest";
import type { Member } from "@quarry/proto/types/identity/v1/Member";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { memberToProto } from "./convert.ts";
import { enqueueGroupMemberEvent, enqueueProjectMemberAudit } from "./member-events.ts";
import { requireMemberAdmin, resolveSource, validateLevel } from "./members-common.ts";
import { parseDate } from "./validate.ts";
import { enqueueAccessChange } from "./access-changes.ts";

export const addMember =
  (deps: IdentityDeps) =>
  async (req: AddMemberRequest__Output): Promise<Member> => {
    const actor = actorOf(req.actor);
    if (!Number(req.userId) && !req.username) throw paramError("user_id is missing");
    if (!req.accessLevel) throw paramError("access_level is missing");
    validateLevel(req.accessLevel);
    const expiresAt = parseDate(req.expiresAt, "expires_at");
    const member = await deps.prisma.$transaction(async (tx) => {
      const src = await resolveSource(tx, actor, req.source);
      requireMemberAdmin(actor, src, req.accessLevel);
      const user = Number(req.userId)
        ? await tx.user.findUnique({ where: { id: Number(req.userId) } })
        : await tx.user.findUnique({ where: { usernameLower: req.username.toLowerCase() } });
      if (!user) throw notFound("User");
      const existing = await tx.member.findUnique({
        where: { sourceType_sourceId_userId: { sourceType: src.sourceType, sourceId: src.sourceId, userId: user.id } },
      });
      if (existing) throw conflict("Member already exists");
      const row = await tx.member.create({
        data: {
          sourceType: src.sourceType,
          sourceId: src.sourceId,
          userId: user.id,
          accessLevel: req.accessLevel,
          expiresAt,
          createdById: actor.userId || null,
        },
        include: { user: true },
      });
      await enqueueAccessChange(tx, { user_ids: [user.id] });
      if (src.isGroup) await enqueueGroupMemberEvent(tx, "user_add_to_group", row, actor);
      else await enqueueProjectMemberAudit(tx, "created", row, actor);
      const creator = actor.userId ? await tx.user.findUnique({ where: { id: actor.userId } }) : null;
      return memberToProto(row, creator);
    });
    deps.outbox.kick();
    return member;
  };
