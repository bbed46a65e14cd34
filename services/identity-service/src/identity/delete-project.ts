import { AccessLevel } from "@quarry/gitlab";
import type { DeleteProjectRequest__Output } from "@quarry/proto/types/identity/v1/DeleteProjectRequest";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { removeAvatars } from "./avatars.ts";
import { uploadKeysOf } from "./uploads-common.ts";
import { requireLevel, visibleProject } from "./lookup.ts";
import { enqueueProjectDestroy } from "./project-events.ts";
import { removeRepositories } from "./repositories.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** Owner or administrator. The row goes first (with its event), then the repository. */
export const deleteProject =
  (deps: IdentityDeps) =>
  async (req: DeleteProjectRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    const { id, avatarKey, uploadKeys } = await deps.prisma.$transaction(async (tx) => {
      const { project, levels } = await visibleProject(tx, actor, req.idOrPath);
      requireLevel(actor, levels.effective, AccessLevel.OWNER);
      await enqueueProjectDestroy(tx, project, actor);
      await enqueueAccessChange(tx, { project_ids: [project.id] });
      await tx.member.deleteMany({ where: { sourceType: "project", sourceId: project.id } });
      const uploadKeys = await uploadKeysOf(tx, [project.id]);
      await tx.project.delete({ where: { id: project.id } });
      return { id: project.id, avatarKey: project.avatarKey, uploadKeys };
    });
    deps.outbox.kick();
    await removeRepositories(deps, [id]);
    // Avatars and Markdown uploads share the store; both go with the project.
    await removeAvatars(deps.avatars, [avatarKey, ...uploadKeys], deps.log);
    return {};
  };
