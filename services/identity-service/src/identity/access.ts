import { AccessLevel } from "@quarry/gitlab";
import type { PrismaClient, Tx } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";

type Db = PrismaClient | Tx;

/** The caller as identity-service sees it. */
export interface ActorInfo {
  userId: number;
  isAdmin: boolean;
  /** A service calling on its own behalf (Actor.system): answered as an administrator, for no user. */
  system?: string;
  /** The client's address (Actor.ip_address), for the actor block of audited events. */
  ipAddress?: string;
}

export function actorOf(actor: { userId?: number; isAdmin?: boolean; system?: string; ipAddress?: string } | null | undefined): ActorInfo {
  if (actor?.system) return { userId: 0, isAdmin: true, system: actor.system };
  return { userId: Number(actor?.userId ?? 0), isAdmin: Boolean(actor?.isAdmin) && Number(actor?.userId ?? 0) > 0, ipAddress: actor?.ipAddress ?? "" };
}

/** The actor block of an audited event (activity-service records it; hook-service strips it). */
export function eventActor(actor: ActorInfo | undefined): { actor?: { user_id: number; ip_address: string } } {
  return actor ? { actor: { user_id: actor.userId, ip_address: actor.ipAddress ?? "" } } : {};
}

// Memberships with an expiry date in the past no longer grant anything.
const activeMembership = (): Prisma.MemberWhereInput => ({
  OR: [{ expiresAt: null }, { expiresAt: { gte: new Date(new Date().toISOString().slice(0, 10)) } }],
});

/** Effective level of a user in a namespace: its own membership or any ancestor group's (max). */
export async function namespaceLevel(
  db: Db,
  userId: number,
  ns: { id: number; kind: string; ownerId: number | null; traversalIds: number[] },
): Promise<number> {
  if (!userId) return AccessLevel.NO_ACCESS;
  if (ns.kind === "user") return ns.ownerId === userId ? AccessLevel.OWNER : AccessLevel.NO_ACCESS;
  const best = await db.member.aggregate({
    _max: { accessLevel: true },
    where: { sourceType: "namespace", sourceId: { in: ns.traversalIds }, userId, ...activeMembership() },
  });
  return best._max.accessLevel ?? AccessLevel.NO_ACCESS;
}

export interface ProjectLevels {
  /** Direct project membership (or 50 for the owner of a personal namespace). */
  projectLevel: number;
  /** Inherited from the group hierarchy. */
  groupLevel: number;
  effective: number;
}

export async function projectLevels(
  db: Db,
  userId: number,
  project: { id: number; namespace: { id: number; kind: string; ownerId: number | null; traversalIds: number[] } },
): Promise<ProjectLevels> {
  if (!userId) return { projectLevel: 0, groupLevel: 0, effective: 0 };
  const direct = await db.member.findFirst({
    where: { sourceType: "project", sourceId: project.id, userId, ...activeMembership() },
    select: { accessLevel: true },
  });
  let projectLevel = direct?.accessLevel ?? 0;
  let groupLevel = 0;
  if (project.namespace.kind === "user") {
    if (project.namespace.ownerId === userId) projectLevel = Math.max(projectLevel, AccessLevel.OWNER);
  } else {
    groupLevel = await namespaceLevel(db, userId, project.namespace);
  }
  return { projectLevel, groupLevel, effective: Math.max(projectLevel, groupLevel) };
}

/** Read rule shared by projects and groups: public to all, internal to signed-in users, private to members. */
export function canSee(actor: ActorInfo, visibility: string, level: number): boolean {
  if (actor.isAdmin || visibility === "public") return true;
  if (visibility === "internal" && actor.userId > 0) return true;
  return level >= AccessLevel.GUEST;
}

/** Whether the user is a member somewhere below the group (GitLab shows such ancestors to them). */
export async function hasDescendantMembership(db: Db, userId: number, groupId: number): Promise<boolean> {
  if (!userId) return false;
  const rows = await db.$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM members m
      WHERE m.user_id = ${userId} AND (
        (m.source_type = 'namespace' AND m.source_id IN (SELECT id FROM namespaces WHERE traversal_ids @> ARRAY[${groupId}]::int[]))
        OR (m.source_type = 'project' AND m.source_id IN (
          SELECT p.id FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE n.traversal_ids @> ARRAY[${groupId}]::int[]))
      )
    ) AS found`;
  return Boolean(rows[0]?.found);
}

/** Ids of groups the user is a direct member of (the roots of what they inherit). */
async function memberGroupIds(db: Db, userId: number, minLevel: number = AccessLevel.GUEST): Promise<number[]> {
  const rows = await db.member.findMany({
    where: { sourceType: "namespace", userId, accessLevel: { gte: minLevel }, ...activeMembership() },
    select: { sourceId: true },
  });
  return rows.map((r) => r.sourceId);
}

/**
 * Projects the user reaches through membership: direct, inherited from groups, or their own
 * personal namespace. `minLevel` narrows to those where that membership is at least that level.
 */
export async function membershipProjectsWhere(db: Db, userId: number, minLevel: number = AccessLevel.GUEST): Promise<Prisma.ProjectWhereInput> {
  const [groups, direct] = await Promise.all([
    memberGroupIds(db, userId, minLevel),
    db.member.findMany({
      where: { sourceType: "project", userId, accessLevel: { gte: minLevel }, ...activeMembership() },
      select: { sourceId: true },
    }),
  ]);
  return {
    OR: [
      { namespace: { ownerId: userId } },
      { id: { in: direct.map((d) => d.sourceId) } },
      ...(groups.length ? [{ namespace: { traversalIds: { hasSome: groups } } }] : []),
    ],
  };
}

/** Everything the actor may see: used by project listings. */
export async function visibleProjectsWhere(db: Db, actor: ActorInfo): Promise<Prisma.ProjectWhereInput> {
  if (actor.isAdmin) return {};
  if (!actor.userId) return { visibility: "public" };
  const membership = await membershipProjectsWhere(db, actor.userId);
  return { OR: [{ visibility: { in: ["public", "internal"] } }, ...(membership.OR ?? [])] };
}

/** Groups the user is a member of, directly or through an ancestor. */
export async function membershipGroupsWhere(db: Db, userId: number, minLevel: number = AccessLevel.GUEST): Promise<Prisma.NamespaceWhereInput> {
  const groups = await memberGroupIds(db, userId, minLevel);
  return { kind: "group", traversalIds: { hasSome: groups.length ? groups : [-1] } };
}

/** Groups the actor may see: public, internal when signed in, and where they are members. */
export async function visibleGroupsWhere(db: Db, actor: ActorInfo): Promise<Prisma.NamespaceWhereInput> {
  if (actor.isAdmin) return { kind: "group" };
  if (!actor.userId) return { kind: "group", visibility: "public" };
  const membership = await membershipGroupsWhere(db, actor.userId);
  return { kind: "group", OR: [{ visibility: { in: ["public", "internal"] } }, { traversalIds: membership.traversalIds }] };
}
