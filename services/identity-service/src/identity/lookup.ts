import { forbidden, notFound } from "@quarry/grpc";
import { numericRowId } from "@quarry/gitlab";
import type { PrismaClient, Tx } from "../deps.ts";
import type { Namespace } from "../generated/prisma/client.ts";
import { canSee, hasDescendantMembership, namespaceLevel, projectLevels, type ActorInfo, type ProjectLevels } from "./access.ts";
import type { ProjectRow } from "./convert.ts";

type Db = PrismaClient | Tx;
export const projectInclude = { namespace: { include: { owner: true } }, statistics: true } as const;

/** Finds a project by integer id or full path ("group/sub/project"), case-insensitively. */
export async function findProject(db: Db, idOrPath: string): Promise<ProjectRow | null> {
  const id = numericRowId(idOrPath);
  if (id !== undefined) return db.project.findUnique({ where: { id }, include: projectInclude });
  const cut = idOrPath.lastIndexOf("/");
  if (cut <= 0) return null;
  const nsPath = idOrPath.slice(0, cut).toLowerCase();
  const path = idOrPath.slice(cut + 1).toLowerCase();
  return db.project.findFirst({ where: { pathLower: path, namespace: { fullPathLower: nsPath } }, include: projectInclude });
}

export async function findGroup(db: Db, idOrPath: string): Promise<Namespace | null> {
  const id = numericRowId(idOrPath);
  if (id !== undefined) return db.namespace.findFirst({ where: { id, kind: "group" } });
  return db.namespace.findFirst({ where: { fullPathLower: idOrPath.toLowerCase(), kind: "group" } });
}

/** The project if the actor may see it; otherwise GitLab's 404 (never 403, which would leak existence). */
export async function visibleProject(db: Db, actor: ActorInfo, idOrPath: string): Promise<{ project: ProjectRow; levels: ProjectLevels }> {
  const project = await findProject(db, idOrPath);
  if (!project) throw notFound("Project");
  const levels = await projectLevels(db, actor.userId, project);
  if (!canSee(actor, project.visibility, levels.effective)) throw notFound("Project");
  return { project, levels };
}

export async function visibleGroup(db: Db, actor: ActorInfo, idOrPath: string): Promise<{ group: Namespace; level: number }> {
  const group = await findGroup(db, idOrPath);
  if (!group) throw notFound("Group");
  const level = await namespaceLevel(db, actor.userId, group);
  if (!canSee(actor, group.visibility, level) && !(await hasDescendantMembership(db, actor.userId, group.id))) {
    throw notFound("Group");
  }
  return { group, level };
}

/** Throws 403 unless the actor is an administrator or has at least `min`. */
export function requireLevel(actor: ActorInfo, level: number, min: number): void {
  if (!actor.isAdmin && level < min) throw forbidden();
}

export function requireAdmin(actor: ActorInfo): void {
  if (!actor.isAdmin) throw forbidden();
}
