import { AccessLevel, VISIBILITY_LEVEL } from "@quarry/gitlab";
import { badRequest } from "@quarry/grpc";
import type { Group } from "@quarry/proto/types/identity/v1/Group";
import type { TransferGroupRequest__Output } from "@quarry/proto/types/identity/v1/TransferGroupRequest";
import type { IdentityDeps } from "../deps.ts";
import type { Namespace } from "../generated/prisma/client.ts";
import { actorOf, namespaceLevel } from "./access.ts";
import { groupToProto } from "./convert.ts";
import { CREATION_LEVEL } from "./levels.ts";
import { requireLevel, visibleGroup } from "./lookup.ts";
import { enqueueGroupMemberEvent } from "./member-events.ts";
import { enqueueGroupChangeAudit } from "./audit-records.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** GitLab's Groups::TransferService failures: 400 `Transfer failed: …`. */
const failed = (why: string) => badRequest(`Transfer failed: ${why}`);

/**
 * POST /groups/:id/transfer: Owner of the group (403 otherwise), who may create subgroups in the
 * new parent (or groups at all, for the top level). The group and its descendants get new
 * traversal ids, full paths and full names; visibility above the new parent's is lowered to it,
 * in the subtree and its projects; a group made top-level without a direct Owner gets the caller
 * as Owner. Repositories are stored by id (hashed), so nothing moves on disk.
 */
export const transferGroup =
  (deps: IdentityDeps) =>
  async (req: TransferGroupRequest__Output): Promise<Group> => {
    const actor = actorOf(req.actor);
    const out = await deps.prisma.$transaction(
      async (tx) => {
        const { group, level } = await visibleGroup(tx, actor, req.idOrPath);
        requireLevel(actor, level, AccessLevel.OWNER);
        const parentId = Number(req.parentId) || 0;
        let parent: Namespace | null = null;
        let parentLevel = 0;
        if (parentId) ({ group: parent, level: parentLevel } = await visibleGroup(tx, actor, String(parentId)));
        if (!parent && group.parentId === null) throw failed("Group is already a root group.");
        if (parent && parent.id === group.parentId) throw failed("Group is already associated to the parent group.");
        let allowed: boolean;
        if (actor.isAdmin) allowed = true;
        else if (parent) allowed = parentLevel >= (CREATION_LEVEL[parent.subgroupCreationLevel] ?? AccessLevel.MAINTAINER);
        else allowed = Boolean((await tx.user.findUnique({ where: { id: actor.userId }, select: { canCreateGroup: true } }))?.canCreateGroup);
        if (!allowed) throw failed("You don't have enough permissions.");
        const pathLower = group.path.toLowerCase();
        const sameNamespace = parent
          ? await tx.namespace.findFirst({ where: { parentId: parent.id, path: { equals: group.path, mode: "insensitive" } }, select: { id: true } })
          : await tx.namespace.findUnique({ where: { fullPathLower: pathLower }, select: { id: true } });
        const sameProject = parent ? await tx.project.findFirst({ where: { namespaceId: parent.id, pathLower }, select: { id: true } }) : null;
        if ((sameNamespace && sameNamespace.id !== group.id) || sameProject) {
          throw failed("The parent group already has a subgroup or a project with the same path.");
        }
        if (parent?.traversalIds.includes(group.id)) throw failed("Cannot transfer group to one of its subgroup.");

        const traversalIds = parent ? [...parent.traversalIds, group.id] : [group.id];
        const fullPath = parent ? `${parent.fullPath}/${group.path}` : group.path;
        const fullName = parent ? `${parent.fullName} / ${group.name}` : group.name;
        const depth = group.traversalIds.length;
        // Descendants: replace the moved part of traversal_ids, full_path and full_name.
        await tx.$executeRaw`
          UPDATE namespaces SET
            traversal_ids = ${traversalIds}::int[] || traversal_ids[${depth + 1}:],
            full_path = ${fullPath} || substr(full_path, ${group.fullPath.length + 1}),
            full_path_lower = lower(${fullPath} || substr(full_path, ${group.fullPath.length + 1})),
            full_name = ${fullName} || substr(full_name, ${group.fullName.length + 1}),
            updated_at = now()
          WHERE traversal_ids @> ARRAY[${group.id}]::int[] AND id <> ${group.id}`;
        let visibility = group.visibility;
        if (parent && VISIBILITY_LEVEL[parent.visibility]! < VISIBILITY_LEVEL[group.visibility]!) {
          visibility = parent.visibility;
          const moreOpen = Object.entries(VISIBILITY_LEVEL)
            .filter(([, r]) => r > VISIBILITY_LEVEL[parent.visibility]!)
            .map(([v]) => v);
          await tx.namespace.updateMany({ where: { traversalIds: { has: group.id }, visibility: { in: moreOpen } }, data: { visibility } });
          await tx.project.updateMany({ where: { namespace: { traversalIds: { has: group.id } }, visibility: { in: moreOpen } }, data: { visibility } });
        }
        const row = await tx.namespace.update({
          where: { id: group.id },
          data: { parentId: parent?.id ?? null, traversalIds, fullPath, fullPathLower: fullPath.toLowerCase(), fullName, visibility },
        });
        let ownerAdded = false;
        if (!parent && actor.userId) {
          const owners = await tx.member.count({ where: { sourceType: "namespace", sourceId: group.id, accessLevel: AccessLevel.OWNER } });
          if (!owners) {
            const owner = await tx.member.upsert({
              where: { sourceType_sourceId_userId: { sourceType: "namespace", sourceId: group.id, userId: actor.userId } },
              create: { sourceType: "namespace", sourceId: group.id, userId: actor.userId, accessLevel: AccessLevel.OWNER, createdById: actor.userId },
              update: { accessLevel: AccessLevel.OWNER, expiresAt: null },
              include: { user: true },
            });
            await enqueueGroupMemberEvent(tx, "user_add_to_group", owner, actor);
            ownerAdded = true;
          }
        }
        const parentOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf("/")));
        await enqueueGroupChangeAudit(
          tx,
          "group_parent_updated",
          row,
          { change: "parent group", from: parentOf(group.fullPath), to: parentOf(row.fullPath) },
          actor,
        );
        await enqueueAccessChange(tx, { namespace_ids: [group.id] });
        return { row, level: await namespaceLevel(tx, actor.userId, row), ownerAdded };
      },
      { timeout: 30_000 },
    );
    deps.outbox.kick();
    return groupToProto(out.row, out.level);
  };
