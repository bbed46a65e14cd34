import { Subjects, enqueueEvent } from "@quarry/bus";
import { AccessLevel } from "@quarry/gitlab";
import type { DeleteGroupRequest__Output } from "@quarry/proto/types/identity/v1/DeleteGroupRequest";
import type { IdentityDeps } from "../deps.ts";
import { actorOf, eventActor } from "./access.ts";
import { removeAvatars } from "./avatars.ts";
import { uploadKeysOf } from "./uploads-common.ts";
import { requireLevel, visibleGroup } from "./lookup.ts";
import { enqueueProjectDestroy } from "./project-events.ts";
import { removeRepositories } from "./repositories.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** Owner or administrator: removes the group, its subgroups and all their projects and repositories. */
export const deleteGroup =
  (deps: IdentityDeps) =>
  async (req: DeleteGroupRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    const { projectIds, avatarKeys } = await deps.prisma.$transaction(async (tx) => {
      const { group, level } = await visibleGroup(tx, actor, req.idOrPath);
      requireLevel(actor, level, AccessLevel.OWNER);
      const projects = await tx.project.findMany({
        where: { namespace: { traversalIds: { has: group.id } } },
        include: { namespace: { include: { owner: true } } },
      });
      for (const p of projects) await enqueueProjectDestroy(tx, p, actor);
      await enqueueAccessChange(tx, { namespace_ids: [group.id], project_ids: projects.map((p) => p.id) });
      const namespaces = await tx.namespace.findMany({ where: { traversalIds: { has: group.id } } });
      // One group_destroy per group gone (subgroups too), with the change: services drop what they keep for them.
      for (const n of namespaces) {
        await enqueueEvent(tx, Subjects.groupDestroy, {
          event_name: "group_destroy",
          created_at: n.createdAt.toISOString(),
          updated_at: n.updatedAt.toISOString(),
          group_id: n.id,
          name: n.name,
          path: n.path,
          full_path: n.fullPath,
          parent_id: n.parentId,
          ...eventActor(actor),
        });
      }
      const namespaceIds = namespaces.map((n) => n.id);
      await tx.member.deleteMany({
        where: {
          OR: [
            { sourceType: "namespace", sourceId: { in: namespaceIds } },
            { sourceType: "project", sourceId: { in: projects.map((p) => p.id) } },
          ],
        },
      });
      const uploadKeys = await uploadKeysOf(
        tx,
        projects.map((p) => p.id),
      );
      await tx.namespace.delete({ where: { id: group.id } }); // cascades to subgroups and projects
      return { projectIds: projects.map((p) => p.id), avatarKeys: [...[...projects, ...namespaces].map((r) => r.avatarKey), ...uploadKeys] };
    });
    deps.outbox.kick();
    await removeRepositories(deps, projectIds);
    await removeAvatars(deps.avatars, avatarKeys, deps.log);
    return {};
  };
