import { AccessLevel } from "@quarry/gitlab";
import { failedPrecondition, notFound, paramError } from "@quarry/grpc";
import type { Member } from "@quarry/proto/types/identity/v1/Member";
import type { UpdateMemberRequest__Output } from "@quarry/proto/types/identity/v1/UpdateMemberRequest";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { memberToProto } from "./convert.ts";
import { enqueueGroupMemberEvent, enqueueProjectMemberAudit } from "./member-events.ts";
import { requireMemberAdmin, resolveSource, validateLevel } from "./members-common.ts";
import { parseDate } from "./validate.ts";
import { enqueueAccessChange } from "./access-changes.ts";

export const updateMember =
  (deps: IdentityDeps) =>
  async (req: UpdateMemberRequest__Output): Promise<Member> => {
    const actor = actorOf(req.actor);
    if (!req.accessLevel) throw paramError("access_level is missing");
    validateLevel(req.accessLevel);
    const member = await deps.prisma.$transaction(async (tx) => {
      const src = await resolveSource(tx, actor, req.source);
      const key = { sourceType: src.sourceType, sourceId: src.sourceId, userId: Number(req.userId) };
      const existing = await tx.member.findUnique({ where: { sourceType_sourceId_userId: key } });
      if (!existing) throw notFound("Member");
      requireMemberAdmin(actor, src, Math.max(req.accessLevel, existing.accessLevel));
      if (src.isGroup && existing.accessLevel === AccessLevel.OWNER && req.accessLevel < AccessLevel.OWNER) {
        const owners = await tx.member.count({ where: { sourceType: "namespace", sourceId: src.sourceId, accessLevel: AccessLevel.OWNER } });
        if (owners <= 1) throw failedPrecondition("A group must have at least one owner");
      }
      const data: Prisma.MemberUpdateInput = { accessLevel: req.accessLevel };
      if (req.expiresAt !== undefined) data.expiresAt = parseDate(req.expiresAt, "expires_at");
      const row = await tx.member.update({ where: { sourceType_sourceId_userId: key }, data, include: { user: true } });
      await enqueueAccessChange(tx, { user_ids: [row.userId] });
      // GitLab's GroupMember#post_update_hook: an event only when the level or the expiry changed.
      if (src.isGroup && (row.accessLevel !== existing.accessLevel || row.expiresAt?.getTime() !== existing.expiresAt?.getTime())) {
        await enqueueGroupMemberEvent(tx, "user_update_for_group", row, actor);
      }
      if (!src.isGroup && row.accessLevel !== existing.accessLevel) await enqueueProjectMemberAudit(tx, "updated", row, actor, existing.accessLevel);
      const creator = row.createdById ? await tx.user.findUnique({ where: { id: row.createdById } }) : null;
      return memberToProto(row, creator);
    });
    deps.outbox.kick();
    return member;
  };
