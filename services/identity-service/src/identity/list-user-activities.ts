import { paramError, unauthenticated } from "@quarry/grpc";
import type { ListUserActivitiesRequest__Output } from "@quarry/proto/types/identity/v1/ListUserActivitiesRequest";
import type { ListUserActivitiesResponse } from "@quarry/proto/types/identity/v1/ListUserActivitiesResponse";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { pageInfo, paging } from "./paging.ts";

/**
 * GitLab's GET /user/activities: the users whose last_activity_on is on or after `from`, least
 * recently active first (User.where(last_activity_on >= from).reorder(last_activity_on: :asc));
 * callers who cannot read all resources (non-administrators) see only public profiles.
 */
export const listUserActivities =
  (deps: Pick<IdentityDeps, "prisma">) =>
  async (req: ListUserActivitiesRequest__Output): Promise<ListUserActivitiesResponse> => {
    const actor = actorOf(req.actor);
    if (!actor.userId && !actor.system) throw unauthenticated();
    const from = new Date(`${req.from.slice(0, 10)}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}/.test(req.from) || Number.isNaN(from.getTime())) throw paramError("from is invalid");
    const p = paging(req.page);
    const where = { lastActivityOn: { gte: from }, ...(actor.isAdmin ? {} : { privateProfile: false }) };
    const [total, rows] = await Promise.all([
      deps.prisma.user.count({ where }),
      deps.prisma.user.findMany({
        where,
        orderBy: [{ lastActivityOn: "asc" }, { id: "asc" }],
        skip: p.skip,
        take: p.take,
        select: { username: true, lastActivityOn: true },
      }),
    ]);
    return {
      activities: rows.map((u) => ({ username: u.username, lastActivityOn: u.lastActivityOn!.toISOString().slice(0, 10) })),
      pageInfo: pageInfo(total, p),
    };
  };
