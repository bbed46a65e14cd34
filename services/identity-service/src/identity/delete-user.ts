import { Subjects } from "@quarry/bus";
import { badRequest, forbidden, notFound } from "@quarry/grpc";
import { ghostUserId } from "./ghost-user.ts";
import type { DeleteUserRequest__Output } from "@quarry/proto/types/identity/v1/DeleteUserRequest";
import type { IdentityDeps } from "../deps.ts";
import { type ActorInfo, actorOf, eventActor } from "./access.ts";
import { removeAvatars } from "./avatars.ts";
import { uploadKeysOf } from "./uploads-common.ts";
import { requireAdmin } from "./lookup.ts";
import { enqueueEvent } from "@quarry/bus";
import { removeRepositories } from "./repositories.ts";
import { uncountStarsOf } from "./stars-common.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** Deletes a user with their personal namespace and its projects (administrators only). */
export const deleteUser =
  (deps: IdentityDeps) =>
  async (req: DeleteUserRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    requireAdmin(actor);
    const id = Number(req.id);
    if (id === actor.userId) throw badRequest("You cannot delete yourself");
    await removeUser(deps, id, actor, req.hardDelete);
    return {};
  };

/**
 * Removes a user with their personal namespace and its projects, publishes user_destroy, then
 * their repositories and avatars (DELETE /users/:id, DELETE /groups/:id/enterprise_users/:user_id).
 */
export async function removeUser(deps: IdentityDeps, id: number, actor?: ActorInfo, hardDelete = false): Promise<void> {
  const ghostId = await ghostUserId(deps);
  if (id === ghostId) throw forbidden();
  const removed = await deps.prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id }, include: { namespace: true } });
    if (!user) throw notFound("User");
    const projects = user.namespace ? await tx.project.findMany({ where: { namespaceId: user.namespace.id }, select: { id: true, avatarKey: true } }) : [];
    await uncountStarsOf(tx, id);
    const uploadKeys = await uploadKeysOf(
      tx,
      projects.map((p) => p.id),
    );
    await tx.user.delete({ where: { id } }); // cascades: tokens, memberships, namespace, its projects
    await enqueueAccessChange(tx, { user_ids: [id] }); // the user as caller, and their personal namespace's projects
    await enqueueEvent(tx, Subjects.userDestroy, {
      event_name: "user_destroy",
      created_at: user.createdAt.toISOString(),
      updated_at: new Date().toISOString(),
      user_id: user.id,
      name: user.name,
      username: user.username,
      email: user.email,
      ...eventActor(actor),
    });
    await enqueueEvent(tx, Subjects.userContributions, { user_id: user.id, ghost_user_id: ghostId, hard_delete: hardDelete });
    return { projectIds: projects.map((p) => p.id), avatarKeys: [user.avatarKey, ...projects.map((p) => p.avatarKey), ...uploadKeys] };
  });
  deps.outbox.kick();
  await removeRepositories(deps, removed.projectIds);
  await removeAvatars(deps.avatars, removed.avatarKeys, deps.log);
}
