import { unauthenticated } from "@quarry/grpc";
import type { StarProjectRequest__Output } from "@quarry/proto/types/identity/v1/StarProjectRequest";
import type { StarProjectResponse } from "@quarry/proto/types/identity/v1/StarProjectResponse";
import type { IdentityDeps, Tx } from "../deps.ts";
import { actorOf } from "./access.ts";
import { projectToProto } from "./convert.ts";
import { projectInclude, visibleProject } from "./lookup.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/**
 * Adds (`star`) or removes the caller's star on a readable project. The star row and the
 * project's star_count change in one transaction, so the count never drifts from the rows;
 * a star already in the wanted state changes nothing (GitLab answers 304).
 */
export async function setStar(deps: IdentityDeps, req: StarProjectRequest__Output, star: boolean): Promise<StarProjectResponse> {
  const actor = actorOf(req.actor);
  if (!actor.userId) throw unauthenticated();
  const { project, levels } = await visibleProject(deps.prisma, actor, req.idOrPath);
  const where = { userId: actor.userId, projectId: project.id };
  const changed = await deps.prisma.$transaction(async (tx) => {
    const n = star
      ? (await tx.userStarProject.createMany({ data: [where], skipDuplicates: true })).count
      : (await tx.userStarProject.deleteMany({ where })).count;
    // Raw SQL: starring must not touch the project's updated_at (GitLab's counter cache does not).
    if (n) await tx.$executeRaw`UPDATE projects SET star_count = star_count + ${star ? 1 : -1} WHERE id = ${project.id}`;
    if (n) await enqueueAccessChange(tx, { project_ids: [project.id] }); // star_count of cached projects
    return n > 0;
  });
  if (changed) deps.outbox.kick();
  const row = await deps.prisma.project.findUniqueOrThrow({ where: { id: project.id }, include: projectInclude });
  return { project: projectToProto(row, levels), changed };
}

/**
 * Takes a user's stars off their projects' counts before the user is deleted (the rows go with the
 * user by cascade), as GitLab's counter cache does when a user's stars are destroyed.
 */
export async function uncountStarsOf(tx: Tx, userId: number): Promise<void> {
  await tx.$executeRaw`UPDATE projects SET star_count = star_count - 1 WHERE id IN (SELECT project_id FROM users_star_projects WHERE user_id = ${userId})`;
}
