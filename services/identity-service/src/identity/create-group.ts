import { Subjects } from "@quarry/bus";
import { AccessLevel, SUBGROUP_CREATION_LEVELS, VISIBILITY_LEVEL } from "@quarry/gitlab";
import { badRequest, forbidden, paramError } from "@quarry/grpc";
import type { CreateGroupRequest__Output } from "@quarry/proto/types/identity/v1/CreateGroupRequest";
import type { Group } from "@quarry/proto/types/identity/v1/Group";
import type { IdentityDeps } from "../deps.ts";
import { readApplicationSettings } from "./application-settings.ts";
import { actorOf, eventActor } from "./access.ts";
import { checkAvatar, withAvatarWrites } from "./avatars.ts";
import { groupToProto } from "./convert.ts";
import { CREATION_LEVEL } from "./levels.ts";
import { visibleGroup } from "./lookup.ts";
import { enqueueGroupMemberEvent } from "./member-events.ts";
import { enqueueEvent } from "@quarry/bus";
import { validateName, validatePath, validateVisibility } from "./validate.ts";

export const createGroup =
  (deps: IdentityDeps) =>
  async (req: CreateGroupRequest__Output): Promise<Group> => {
    const actor = actorOf(req.actor);
    if (!actor.userId) throw forbidden();
    if (!req.name) throw paramError("name is missing");
    if (!req.path) throw paramError("path is missing");
    validateName(req.name);
    const parentId = Number(req.parentId) || 0;
    validatePath(req.path, "path", parentId === 0);
    const settings = await readApplicationSettings(deps.prisma);
    // Without an explicit visibility: the instance default, narrowed to what the parent allows.
    let visibility = req.visibility || settings.default_group_visibility;
    validateVisibility(visibility);
    if (req.projectCreationLevel && !(req.projectCreationLevel in CREATION_LEVEL)) throw paramError("project_creation_level does not have a valid value");
    if (req.subgroupCreationLevel && !(SUBGROUP_CREATION_LEVELS as readonly string[]).includes(req.subgroupCreationLevel))
      throw paramError("subgroup_creation_level does not have a valid value");

    const group = await withAvatarWrites(deps.avatars, (avatars) =>
      deps.prisma.$transaction(async (tx) => {
        let parent: Awaited<ReturnType<typeof visibleGroup>>["group"] | null = null;
        if (parentId) {
          const found = await visibleGroup(tx, actor, String(parentId));
          parent = found.group;
          const needed = CREATION_LEVEL[parent.subgroupCreationLevel] ?? AccessLevel.MAINTAINER;
          if (!actor.isAdmin && found.level < needed) throw forbidden();
          if (!req.visibility && VISIBILITY_LEVEL[visibility]! > VISIBILITY_LEVEL[parent.visibility]!) visibility = parent.visibility as typeof visibility;
          if (VISIBILITY_LEVEL[visibility]! > VISIBILITY_LEVEL[parent.visibility]!) {
            throw badRequest({ visibility_level: [`${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`] });
          }
        } else if (!actor.isAdmin) {
          const me = await tx.user.findUnique({ where: { id: actor.userId }, select: { canCreateGroup: true } });
          if (!me?.canCreateGroup) throw forbidden();
        }
        // After the permission checks, before any write (GitLab validates the record it may create).
        const avatar = checkAvatar(req.avatar);
        const fullPath = parent ? `${parent.fullPath}/${req.path}` : req.path;
        const taken = await tx.namespace.findUnique({ where: { fullPathLower: fullPath.toLowerCase() }, select: { id: true } });
        if (taken) throw badRequest(`Failed to save group {:path=>["has already been taken"]}`);
        const created = await tx.namespace.create({
          data: {
            name: req.name,
            path: req.path,
            kind: "group",
            parentId: parent?.id ?? null,
            fullPath,
            fullPathLower: fullPath.toLowerCase(),
            fullName: parent ? `${parent.fullName} / ${req.name}` : req.name,
            visibility,
            description: req.description,
            projectCreationLevel: req.projectCreationLevel || "developer",
            subgroupCreationLevel: req.subgroupCreationLevel || "maintainer",
            requestAccessEnabled: req.requestAccessEnabled ?? true,
            defaultBranch: req.defaultBranch,
          },
        });
        const withIds = await tx.namespace.update({
          where: { id: created.id },
          data: {
            traversalIds: [...(parent?.traversalIds ?? []), created.id],
            ...(avatar && !avatar.remove ? await avatars.stage("group", created.id, avatar, null) : {}),
          },
        });
        // The creator owns the group.
        const owner = await tx.member.create({
          data: { sourceType: "namespace", sourceId: created.id, userId: actor.userId, accessLevel: AccessLevel.OWNER, createdById: actor.userId },
          include: { user: true },
        });
        await enqueueEvent(tx, Subjects.groupCreate, {
          event_name: "group_create",
          created_at: created.createdAt.toISOString(),
          updated_at: created.updatedAt.toISOString(),
          group_id: created.id,
          name: created.name,
          path: created.path,
          full_path: created.fullPath,
          parent_id: created.parentId,
          ...eventActor(actor),
        });
        // GitLab's add_owner is a member create: its event reaches the parent groups' member hooks.
        await enqueueGroupMemberEvent(tx, "user_add_to_group", owner, actor);
        return withIds;
      }),
    );
    deps.outbox.kick();
    return groupToProto(group, AccessLevel.OWNER);
  };
