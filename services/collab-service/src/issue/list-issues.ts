import { pagination } from "@quarry/database";
import { paramError } from "@quarry/grpc";
import type { ListIssuesRequest__Output } from "@quarry/proto/types/collab/v1/ListIssuesRequest";
import type { ListIssuesResponse } from "@quarry/proto/types/collab/v1/ListIssuesResponse";
import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { resolveParent } from "../label/parent.ts";
import { relayRefusals } from "../upstream.ts";
import { ANY, addDays, dateBoundsWhere, isWord, labelsWhere, milestoneWhere, NONE, reactionWhere, searchWhere, startOfDay } from "../issuable/filters.ts";
import { visibleAcross } from "./access.ts";
import { issueInclude, toIssueMessages } from "./entity.ts";

/** A project in the listed scope, with the caller's level there. */
export interface ScopeProject {
  id: number;
  path: string;
  level: number;
}

/** Due-date filters of IssuableFinder (`due_date=`). */
function dueDateWhere(value: string, now: Date): Prisma.IssueWhereInput | null {
  const today = startOfDay(now);
  switch (value) {
    case "":
      return null;
    case "0":
    case "none":
      return { dueDate: null };
    case "any":
      return { dueDate: { not: null } };
    case "today":
      return { dueDate: today };
    case "tomorrow":
      return { dueDate: addDays(today, 1) };
    case "overdue":
      return { dueDate: { lt: today } };
    case "week": {
      // Monday to Sunday, as Rails' beginning_of_week.
      const monday = addDays(today, -((today.getUTCDay() + 6) % 7));
      return { dueDate: { gte: monday, lte: addDays(monday, 6) } };
    }
    case "month": {
      const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
      const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0));
      return { dueDate: { gte: first, lte: last } };
    }
    case "next_month_and_previous_two_weeks": {
      const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 2, 0));
      return { dueDate: { gte: addDays(today, -14), lte: last } };
    }
    default:
      throw paramError("due_date does not have a valid value");
  }
}

/** The order of the list: GitLab's sort options; ties by id in the same direction. */
function orderBy(orderByName: string, sort: "asc" | "desc"): Prisma.IssueOrderByWithRelationInput[] {
  switch (orderByName) {
    case "updated_at":
      return [{ updatedAt: sort }, { id: sort }];
    case "title":
      return [{ title: sort }, { id: sort }];
    case "due_date":
      return [{ dueDate: { sort, nulls: "last" } }, { id: sort }];
    case "milestone_due":
      return [{ milestone: { dueDate: { sort, nulls: "last" } } }, { id: sort }];
    case "id":
      return [{ id: sort }];
    default:
      return [{ createdAt: sort }, { id: sort }];
  }
}

/** Orders that need more than the issue's own columns: upvotes, label priorities. */
const COMPUTED_ORDERS = new Set(["popularity", "label_priority", "priority"]);

type SortKey = number | null;
/** Compares keys in a direction with missing keys last, as GitLab's NULLS LAST. */
const compareKeys = (a: SortKey, b: SortKey, dir: number) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : (a - b) * dir);

/**
 * One page ordered by popularity (thumbsup awards), label_priority (the highest priority, i.e. the
 * lowest number, among the issue's labels in its project) or priority (milestone due date, then
 * label priority): the matching issues' keys are read, sorted, and the page's rows loaded.
 */
async function pageByComputedOrder(deps: CollabDeps, where: Prisma.IssueWhereInput, by: string, sort: "asc" | "desc", offset: number, limit: number) {
  const db = deps.prisma;
  const keys = await db.issue.findMany({
    where,
    select: { id: true, projectId: true, milestone: { select: { dueDate: true } }, labels: { select: { labelId: true } } },
  });
  const dir = sort === "asc" ? 1 : -1;
  const ids = keys.map((k) => k.id);
  const votes = new Map<number, number>();
  if (by === "popularity") {
    const up = await db.awardEmoji.groupBy({
      by: ["awardableId"],
      where: { awardableType: "Issue", name: "thumbsup", awardableId: { in: ids } },
      _count: { _all: true },
    });
    for (const u of up) votes.set(u.awardableId, u._count._all);
  }
  const labelPriority = new Map<number, SortKey>();
  if (by !== "popularity") {
    const labelIds = [...new Set(keys.flatMap((k) => k.labels.map((l) => l.labelId)))];
    const priorities = labelIds.length ? await db.labelPriority.findMany({ where: { labelId: { in: labelIds } } }) : [];
    const of = new Map(priorities.map((p) => [`${p.projectId}:${p.labelId}`, p.priority]));
    for (const k of keys) {
      const mine = k.labels.map((l) => of.get(`${k.projectId}:${l.labelId}`)).filter((p): p is number => p !== undefined);
      labelPriority.set(k.id, mine.length ? Math.min(...mine) : null);
    }
  }
  const due = (k: (typeof keys)[number]): SortKey => (k.milestone?.dueDate ? k.milestone.dueDate.getTime() : null);
  keys.sort((a, b) => {
    let c = 0;
    if (by === "popularity") c = ((votes.get(a.id) ?? 0) - (votes.get(b.id) ?? 0)) * dir;
    else if (by === "label_priority") c = compareKeys(labelPriority.get(a.id) ?? null, labelPriority.get(b.id) ?? null, dir);
    else c = compareKeys(due(a), due(b), dir) || compareKeys(labelPriority.get(a.id) ?? null, labelPriority.get(b.id) ?? null, 1);
    return c || b.id - a.id;
  });
  const pageIds = keys.slice(offset, offset + limit).map((k) => k.id);
  const rows = await db.issue.findMany({ where: { id: { in: pageIds } }, include: issueInclude });
  return pageIds.map((id) => rows.find((r) => r.id === id)!);
}

/**
 * GitLab's IssuesFinder for GET /projects/:id/issues, /groups/:id/issues and /issues: the scope's
 * projects (identity-service's ListVisibleProjects for groups and the instance), confidentiality per
 * project, then every filter and order of the API.
 */
export const listIssues =
  (deps: CollabDeps) =>
  async (req: ListIssuesRequest__Output): Promise<ListIssuesResponse> => {
    const actorUser = Number(req.actor?.userId ?? 0);
    const actor = { userId: actorUser, isAdmin: Boolean(req.actor?.isAdmin), system: req.actor?.system ?? "" };
    const isAdmin = actor.isAdmin || actor.system !== "";
    let projects: ScopeProject[];
    let groupFullPath = "";
    if (req.project) {
      const parent = await resolveParent(deps, req.actor, { project: req.project, group: "" });
      projects = [{ id: parent.id, path: parent.fullPath, level: parent.accessLevel }];
    } else {
      const visible = await relayRefusals(deps.identity.ListVisibleProjects({ actor, group: req.group, minAccessLevel: 0 }));
      projects = visible.projects.map((p) => ({ id: Number(p.id), path: p.pathWithNamespace, level: p.accessLevel }));
      groupFullPath = visible.groupFullPath;
    }
    const now = new Date();
    const f: Prisma.IssueWhereInput[] = [visibleAcross(projects, actorUser, isAdmin)];

    if (req.state === "opened" || req.state === "closed") f.push({ state: req.state });
    f.push(...labelsWhere(req.labels, req.notLabels));
    if (req.milestone !== undefined && req.milestone !== "") f.push(milestoneWhere(req.milestone, now));
    if (req.notMilestone !== undefined && req.notMilestone !== "") f.push({ NOT: milestoneWhere(req.notMilestone, now) });
    if (Number(req.milestoneId) > 0) f.push({ milestoneId: Number(req.milestoneId) });

    const assignee = req.assigneeId;
    if (assignee !== undefined && assignee !== "") {
      if (isWord(assignee, NONE)) f.push({ assignees: { none: {} } });
      else if (isWord(assignee, ANY)) f.push({ assignees: { some: {} } });
      else f.push({ assignees: { some: { userId: Number(assignee) || -1 } } });
    }
    if (req.notAssigneeId !== undefined && req.notAssigneeId !== "") f.push({ assignees: { none: { userId: Number(req.notAssigneeId) || -1 } } });
    for (const u of req.assigneeUserIds) f.push({ assignees: { some: { userId: Number(u) } } });
    if (Number(req.authorId) !== 0) f.push({ authorId: Number(req.authorId) });
    if (Number(req.notAuthorId) !== 0) f.push({ authorId: { not: Number(req.notAuthorId) } });

    // Reactions are the caller's own awards on issues.
    f.push(...(await reactionWhere(deps, "Issue", actorUser, req.myReactionEmoji, req.notMyReactionEmoji)));

    const search = searchWhere(req.search, req.searchIn);
    if (search) f.push(search);
    if (req.iids.length) f.push({ iid: { in: req.iids.map(Number) } });
    if (req.notIids.length) f.push({ iid: { notIn: req.notIids.map(Number) } });
    f.push(...dateBoundsWhere(req));
    const due = dueDateWhere(req.dueDate, now);
    if (due) f.push(due);
    if (req.confidential !== undefined) f.push({ confidential: req.confidential });
    if (req.issueTypes.length) f.push({ issueType: { in: req.issueTypes } });
    if (req.notIssueTypes.length) f.push({ issueType: { notIn: req.notIssueTypes } });
    if (req.scope === "created_by_me") f.push(actorUser > 0 ? { authorId: actorUser } : { id: -1 });
    else if (req.scope === "assigned_to_me") f.push(actorUser > 0 ? { assignees: { some: { userId: actorUser } } } : { id: -1 });

    const sort = req.sort === "asc" ? "asc" : "desc";
    const countWhere: Prisma.IssueWhereInput = { AND: [...f] };
    if (Number(req.idAfter) > 0) f.push({ id: { gt: Number(req.idAfter) } });
    if (Number(req.idBefore) > 0) f.push({ id: { lt: Number(req.idBefore) } });
    const keyset = Number(req.idAfter) > 0 || Number(req.idBefore) > 0;
    const where: Prisma.IssueWhereInput = { AND: f };
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const [total, rows] = await Promise.all([
      deps.prisma.issue.count({ where: keyset ? where : countWhere }),
      COMPUTED_ORDERS.has(req.orderBy) && !keyset
        ? pageByComputedOrder(deps, where, req.orderBy, sort, offset, limit)
        : deps.prisma.issue.findMany({ where, include: issueInclude, orderBy: orderBy(req.orderBy, sort), skip: offset, take: limit }),
    ]);
    const paths = new Map(projects.map((p) => [p.id, p.path]));
    return {
      issues: await toIssueMessages(deps, deps.prisma, rows, paths),
      pageInfo: { total, page: offset / limit + 1, perPage: limit },
      groupFullPath,
    };
  };
