import { AccessLevel } from "@quarry/gitlab";
import type { ListVisibleProjectsRequest__Output } from "@quarry/proto/types/identity/v1/ListVisibleProjectsRequest";
import type { ListVisibleProjectsResponse } from "@quarry/proto/types/identity/v1/ListVisibleProjectsResponse";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf, visibleProjectsWhere } from "./access.ts";
import { visibleGroup } from "./lookup.ts";

/**
 * The projects a caller may read with its level in each, for lists that span projects (a group's
 * or the instance's issues): other services filter their rows per project by that level
 * (confidential issues need Reporter+) without an Authorize call per project.
 */
export const listVisibleProjects =
  (deps: IdentityDeps) =>
  async (req: ListVisibleProjectsRequest__Output): Promise<ListVisibleProjectsResponse> => {
    const actor = actorOf(req.actor);
    const filters: Prisma.ProjectWhereInput[] = [await visibleProjectsWhere(deps.prisma, actor)];
    let groupFullPath = "";
    if (req.group) {
      const { group } = await visibleGroup(deps.prisma, actor, req.group);
      groupFullPath = group.fullPath;
      filters.push({ namespace: { traversalIds: { has: group.id } } });
    }
    const projects = await deps.prisma.project.findMany({
      where: { AND: filters },
      select: { id: true, path: true, namespace: { select: { id: true, kind: true, ownerId: true, traversalIds: true, fullPath: true } } },
      orderBy: { id: "asc" },
    });
    const today = new Date(new Date().toISOString().slice(0, 10));
    const memberships = actor.userId
      ? await deps.prisma.member.findMany({
          where: { userId: actor.userId, OR: [{ expiresAt: null }, { expiresAt: { gte: today } }] },
          select: { sourceType: true, sourceId: true, accessLevel: true },
        })
      : [];
    const byProject = new Map<number, number>();
    const byGroup = new Map<number, number>();
    for (const m of memberships) {
      const into = m.sourceType === "project" ? byProject : byGroup;
      into.set(m.sourceId, Math.max(into.get(m.sourceId) ?? 0, m.accessLevel));
    }
    const levelIn = (p: (typeof projects)[number]): number => {
      if (!actor.userId) return AccessLevel.NO_ACCESS;
      let level = byProject.get(p.id) ?? 0;
      if (p.namespace.kind === "user") {
        if (p.namespace.ownerId === actor.userId) level = Math.max(level, AccessLevel.OWNER);
      } else {
        for (const g of p.namespace.traversalIds) level = Math.max(level, byGroup.get(g) ?? 0);
      }
      return level;
    };
    const min = Number(req.minAccessLevel) || 0;
    const answer = projects
      .map((p) => ({ id: p.id, pathWithNamespace: `${p.namespace.fullPath}/${p.path}`, accessLevel: levelIn(p) }))
      .filter((p) => p.accessLevel >= min);
    return { projects: answer, groupFullPath };
  };
