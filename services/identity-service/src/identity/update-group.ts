import { AccessLevel, SUBGROUP_CREATION_LEVELS, VISIBILITY_LEVEL } from "@quarry/gitlab";
import { badRequest, paramError } from "@quarry/grpc";
import type { Group } from "@quarry/proto/types/identity/v1/Group";
import type { UpdateGroupRequest__Output } from "@quarry/proto/types/identity/v1/UpdateGroupRequest";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { checkAvatar, withAvatarWrites } from "./avatars.ts";
import { groupToProto } from "./convert.ts";
import { CREATION_LEVEL } from "./levels.ts";
import { requireLevel, visibleGroup } from "./lookup.ts";
import { validateName, validatePath, validateVisibility } from "./validate.ts";
import { enqueueGroupChangeAudit } from "./audit-records.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** Owner or administrator. A new path or name is carried down to every descendant's full path. */
export const updateGroup =
  (deps: IdentityDeps) =>
  async (req: UpdateGroupRequest__Output): Promise<Group> => {
    const actor = actorOf(req.actor);
    const updated = await withAvatarWrites(deps.avatars, (avatars) =>
      deps.prisma.$transaction(async (tx) => {
        const { group, level } = await visibleGroup(tx, actor, req.idOrPath);
        requireLevel(actor, level, AccessLevel.OWNER);
        const avatar = checkAvatar(req.avatar);
        const data: Prisma.NamespaceUpdateInput = {};
        if (req.description !== undefined) data.description = req.description;
        if (req.requestAccessEnabled !== undefined) data.requestAccessEnabled = req.requestAccessEnabled;
        if (req.defaultBranch !== undefined) data.defaultBranch = req.defaultBranch;
        if (req.projectCreationLevel !== undefined) {
          if (!(req.projectCreationLevel in CREATION_LEVEL)) throw paramError("project_creation_level does not have a valid value");
          data.projectCreationLevel = req.projectCreationLevel;
        }
        if (req.subgroupCreationLevel !== undefined) {
          if (!(SUBGROUP_CREATION_LEVELS as readonly string[]).includes(req.subgroupCreationLevel))
            throw paramError("subgroup_creation_level does not have a valid value");
          data.subgroupCreationLevel = req.subgroupCreationLevel;
        }
        if (req.visibility !== undefined && req.visibility !== group.visibility) {
          validateVisibility(req.visibility);
          const rank = VISIBILITY_LEVEL[req.visibility]!;
          if (group.parentId) {
            const parent = await tx.namespace.findUniqueOrThrow({ where: { id: group.parentId } });
            if (rank > VISIBILITY_LEVEL[parent.visibility]!) {
              throw badRequest({ visibility_level: [`${req.visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`] });
            }
          }
          const moreOpen = Object.entries(VISIBILITY_LEVEL)
            .filter(([, r]) => r > rank)
            .map(([v]) => v);
          const openChild =
            (await tx.namespace.count({ where: { parentId: group.id, visibility: { in: moreOpen } } })) +
            (await tx.project.count({ where: { namespaceId: group.id, visibility: { in: moreOpen } } }));
          if (openChild) {
            throw badRequest({
              visibility_level: [`${req.visibility} is not allowed since this group contains projects or subgroups with higher visibility.`],
            });
          }
          data.visibility = req.visibility;
        }
        const newPath = req.path !== undefined && req.path !== group.path ? req.path : null;
        const newName = req.name !== undefined && req.name !== group.name ? req.name : null;
        if (newName !== null) {
          validateName(newName);
          data.name = newName;
        }
        if (newPath !== null) validatePath(newPath, "path", group.parentId === null);
        if (newPath !== null || newName !== null) {
          const prefix = group.fullPath.slice(0, group.fullPath.length - group.path.length);
          const fullPath = prefix + (newPath ?? group.path);
          const namePrefix = group.fullName.slice(0, group.fullName.length - group.name.length);
          const fullName = namePrefix + (newName ?? group.name);
          if (newPath !== null) {
            const taken = await tx.namespace.findUnique({ where: { fullPathLower: fullPath.toLowerCase() }, select: { id: true } });
            if (taken && taken.id !== group.id) throw badRequest(`Failed to save group {:path=>["has already been taken"]}`);
            data.path = newPath;
          }
          data.fullPath = fullPath;
          data.fullPathLower = fullPath.toLowerCase();
          data.fullName = fullName;
          // Rewrite descendants' full paths and names by prefix.
          await tx.$executeRaw`
          UPDATE namespaces SET
            full_path = ${fullPath} || substr(full_path, ${group.fullPath.length + 1}),
            full_path_lower = lower(${fullPath} || substr(full_path, ${group.fullPath.length + 1})),
            full_name = ${fullName} || substr(full_name, ${group.fullName.length + 1}),
            updated_at = now()
          WHERE traversal_ids @> ARRAY[${group.id}]::int[] AND id <> ${group.id}`;
        }
        if (avatar) Object.assign(data, await avatars.stage("group", group.id, avatar, group.avatarKey));
        const row = await tx.namespace.update({ where: { id: group.id }, data });
        await enqueueAccessChange(tx, { namespace_ids: [group.id] });
        if (newPath !== null) {
          await enqueueGroupChangeAudit(tx, "group_path_updated", row, { change: "path", from: group.fullPath, to: row.fullPath }, actor);
        }
        if (newName !== null) await enqueueGroupChangeAudit(tx, "group_name_updated", row, { change: "name", from: group.name, to: row.name }, actor);
        return { row, level };
      }),
    );
    deps.outbox.kick();
    return groupToProto(updated.row, updated.level);
  };
