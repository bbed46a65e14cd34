import { paramError } from "@quarry/grpc";
import type { ListEventsRequest__Output } from "@quarry/proto/types/activity/v1/ListEventsRequest";
import type { ListEventsResponse } from "@quarry/proto/types/activity/v1/ListEventsResponse";
import type { ActivityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { EVENT_ACTIONS, type EventAction, TARGET_TYPES } from "./actions.ts";
import { eventToProto } from "./convert.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The start (UTC) of a YYYY-MM-DD day; INVALID_ARGUMENT otherwise. */
function dayStart(v: string, name: string): Date {
  const d = new Date(`${v.slice(0, 10)}T00:00:00Z`);
  if (v.length < 10 || Number.isNaN(d.getTime())) throw paramError(`${name} is invalid`);
  return d;
}

const ids = (v: (number | string)[]) => v.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);

/**
 * Contribution events as GitLab's EventsFinder filters them: by author, by the projects the caller
 * may read (the gateway names them), confidential targets only where the caller may see them or
 * their own, `action`, `target_type`, `before` (created before that day's start) and `after`
 * (created after that day's end), id descending by default; offset pages.
 */
export const listEvents =
  (deps: Pick<ActivityDeps, "prisma">) =>
  async (req: ListEventsRequest__Output): Promise<ListEventsResponse> => {
    const and: Prisma.EventWhereInput[] = [];
    if (Number(req.authorId) > 0) and.push({ authorId: Number(req.authorId) });
    if (!req.allProjects) and.push({ projectId: { in: ids(req.projectIds) } });
    if (!req.allConfidential) {
      const or: Prisma.EventWhereInput[] = [{ confidential: false }, { projectId: { in: ids(req.confidentialProjectIds) } }];
      if (Number(req.viewerId) > 0) or.push({ authorId: Number(req.viewerId) }, { confidentialReaderIds: { has: Number(req.viewerId) } });
      and.push({ OR: or });
    }
    if (req.action) {
      const action = EVENT_ACTIONS[req.action as EventAction];
      if (!action) throw paramError("action does not have a valid value");
      and.push({ action });
    }
    if (req.targetType) {
      const types = TARGET_TYPES[req.targetType];
      if (!types) throw paramError("target_type does not have a valid value");
      and.push({ targetType: { in: types } });
    }
    if (req.before) and.push({ createdAt: { lt: dayStart(req.before, "before") } });
    if (req.after) and.push({ createdAt: { gt: new Date(dayStart(req.after, "after").getTime() + DAY_MS - 1) } });
    const where: Prisma.EventWhereInput = { AND: and };
    const perPage = Math.min(100, Math.max(1, req.page?.perPage || 20));
    const page = Math.max(1, req.page?.page || 1);
    const [total, rows] = await Promise.all([
      deps.prisma.event.count({ where }),
      deps.prisma.event.findMany({
        where,
        orderBy: { id: req.ascending ? "asc" : "desc" },
        skip: (page - 1) * perPage,
        take: perPage,
        include: { pushPayload: true },
      }),
    ]);
    return { events: rows.map(eventToProto), pageInfo: { total, page, perPage } };
  };
