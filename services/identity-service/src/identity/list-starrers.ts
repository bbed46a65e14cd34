import type { ListStarrersRequest__Output } from "@quarry/proto/types/identity/v1/ListStarrersRequest";
import type { ListStarrersResponse } from "@quarry/proto/types/identity/v1/ListStarrersResponse";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { userToProto } from "./convert.ts";
import { visibleProject } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";

/**
 * GitLab's UsersStarProjectsFinder: the project's stars, newest first, filtered by the starrer's
 * name or username; users with a private profile are shown only to administrators and themselves.
 */
export const listStarrers =
  (deps: IdentityDeps) =>
  async (req: ListStarrersRequest__Output): Promise<ListStarrersResponse> => {
    const actor = actorOf(req.actor);
    const db = deps.prisma;
    const { project } = await visibleProject(db, actor, req.idOrPath);
    const user: Prisma.UserWhereInput[] = [];
    if (!actor.isAdmin) user.push({ OR: [{ privateProfile: false }, { id: actor.userId }] });
    if (req.search) {
      const contains = { contains: req.search, mode: "insensitive" as const };
      user.push({ OR: [{ name: contains }, { username: contains }] });
    }
    const where: Prisma.UserStarProjectWhereInput = { projectId: project.id, user: { AND: user } };
    const p = paging(req.page);
    const [total, rows] = await Promise.all([
      db.userStarProject.count({ where }),
      db.userStarProject.findMany({ where, include: { user: true }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: p.skip, take: p.take }),
    ]);
    return {
      starrers: rows.map((s) => ({ starredSince: s.createdAt.toISOString(), user: userToProto(s.user) })),
      pageInfo: pageInfo(total, p),
    };
  };
