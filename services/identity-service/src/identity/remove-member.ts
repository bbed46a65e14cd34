import { AccessLevel } from "@quarry/gitlab";
import { failedPrecondition, forbidden, notFound } from "@quarry/grpc";
import type { RemoveMemberRequest__Output } from "@quarry/proto/types/identity/v1/RemoveMemberRequest";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { enqueueGroupMemberEvent, enqueueProjectMemberAudit } from "./member-events.ts";
import { requireMemberAdmin, resolveSource } from "./members-common.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** Removes a membership; members may remove themselves; the sole Owner of a group may not go (409). */
export const removeMember =
  (deps: IdentityDeps) =>
  async (req: RemoveMemberRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    await deps.prisma.$transaction(async (tx) => {
      const src = await resolveSource(tx, actor, req.source);
      const key = { sourceType: src.sourceType, sourceId: src.sourceId, userId: Number(req.userId) };
      const existing = await tx.member.findUnique({ where: { sourceType_sourceId_userId: key }, include: { user: true } });
      if (!existing) throw notFound("Member");
      if (existing.userId !== actor.userId) requireMemberAdmin(actor, src, existing.accessLevel);
      if (existing.accessLevel === AccessLevel.OWNER) {
        if (src.isGroup) {
          const owners = await tx.member.count({ where: { sourceType: "namespace", sourceId: src.sourceId, accessLevel: AccessLevel.OWNER } });
          if (owners <= 1) throw failedPrecondition("You cannot remove the sole owner of a group");
        } else {
          // The owner of a personal project cannot be removed from it.
          const project = await tx.project.findUniqueOrThrow({ where: { id: src.sourceId }, include: { namespace: true } });
          if (project.namespace.ownerId === existing.userId) throw forbidden();
        }
      }
      await tx.member.delete({ where: { sourceType_sourceId_userId: key } });
      await enqueueAccessChange(tx, { user_ids: [existing.userId] });
      if (src.isGroup) await enqueueGroupMemberEvent(tx, "user_remove_from_group", existing, actor);
      else await enqueueProjectMemberAudit(tx, "destroyed", existing, actor);
    });
    deps.outbox.kick();
    return {};
  };
