import type { Request, Response } from "express";
import { Router } from "express";
import type { ListIssuesRequest } from "@quarry/proto/types/collab/v1/ListIssuesRequest";
import type { GatewayDeps } from "../../deps.ts";
import { actor, requireUser, scope } from "../../http/auth.ts";
import { ApiError, unauthorized } from "../../http/errors.ts";
import { keysetBounds, keysetShape, writeKeysetHeaders } from "../../http/keyset.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, parseParams, requestParams, z } from "../../http/params.ts";
import { issueEntity, issueUserIds, resourceEventEntity, type IssueContext } from "../../entities/issue.ts";
import { usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";

/**
 * Issues (GitLab's lib/api/issues.rb, IssuesFinder, Entities::Issue) and their label, state and
 * milestone events (lib/api/resource_*_events.rb), stored in collab-service. Reading follows the
 * project's visibility and hides confidential issues from all but Reporter+, the author and the
 * assignees; creating needs a signed-in reader; changing needs Reporter+, the author or an assignee;
 * deleting needs an Owner or admin. Not here: system notes, webhooks, subscriptions (`subscribed` is
 * false), time tracking, moving, links, participants, closed_by merge requests.
 */

/** GitLab's update_params_at_least_one_of (CE). */
const UPDATE_FIELDS = [
  "assignee_id",
  "assignee_ids",
  "confidential",
  "created_at",
  "description",
  "discussion_locked",
  "due_date",
  "labels",
  "add_labels",
  "remove_labels",
  "milestone_id",
  "state_event",
  "title",
  "issue_type",
];

const ISSUE_TYPES = ["issue", "incident", "test_case", "task"] as const;
const ORDER_BY = [
  "created_at",
  "updated_at",
  "priority",
  "due_date",
  "relative_position",
  "label_priority",
  "milestone_due",
  "popularity",
  "weight",
  "title",
] as const;
/** A user id or one of None/Any (GitLab's assignee_id, any case). */
const userFilter = () => z.union([z.number(), z.string()]).transform((v) => String(v));
const labelList = () => p.array(z.string());
/** "" or 0 clears a milestone or assignee, as Rails casts a blank id. */
const optionalId = () => z.union([p.int(), z.literal("")]).transform((v) => (v === "" ? 0 : v));

/** The issue list's parameters (also declared by the milestone issues route, which looks the milestone up first). */
export const listShape = {
  state: p.enum(["opened", "closed", "all"]).optional(),
  labels: labelList().optional(),
  with_labels_details: p.bool().optional(),
  milestone: p.string().optional(),
  milestone_id: p.string().optional(),
  iids: p.array(p.int()).optional(),
  search: p.searchTerm("search").optional(),
  in: p.string().optional(),
  author_id: p.int().optional(),
  author_username: p.string().optional(),
  assignee_id: userFilter().optional(),
  assignee_username: p.array(z.string()).optional(),
  my_reaction_emoji: p.string().optional(),
  scope: p.enum(["created-by-me", "assigned-to-me", "created_by_me", "assigned_to_me", "all"]).optional(),
  created_after: p.datetime().optional(),
  created_before: p.datetime().optional(),
  updated_after: p.datetime().optional(),
  updated_before: p.datetime().optional(),
  due_date: p.string().optional(),
  confidential: p.bool().optional(),
  issue_type: p.enum(ISSUE_TYPES).optional(),
  order_by: p.enum(ORDER_BY).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
  not: p.object().optional(),
  ...keysetShape,
  ...pageShape,
};

const notShape = {
  labels: labelList().optional(),
  milestone: p.string().optional(),
  author_id: p.int().optional(),
  author_username: p.string().optional(),
  assignee_id: userFilter().optional(),
  assignee_username: p.array(z.string()).optional(),
  iids: p.array(p.int()).optional(),
  my_reaction_emoji: p.string().optional(),
  issue_type: p.enum(ISSUE_TYPES).optional(),
};

/** A username's id for filters (-1 for nobody: the filter then matches nothing, as GitLab's). */
export async function userIdOf(deps: GatewayDeps, req: Request, username: string): Promise<number> {
  const { users } = await deps.identity.ListUsers({ actor: actor(req), username, page: { page: 1, perPage: 1 } }, { requestId: req.requestId });
  const u = users.find((x) => x.username.toLowerCase() === username.toLowerCase());
  return u ? Number(u.id) : -1;
}

export interface IssueListScope {
  project?: string;
  group?: string;
  /** Milestone issue lists: only this milestone's issues. */
  milestoneId?: number;
  /** The scope used when none is given ("all" for projects and groups, "created_by_me" for /issues). */
  defaultScope: string;
}

/** GET …/issues for a project, a group, the instance or a milestone: IssuesFinder's filters, offset or keyset pages. */
export async function listIssuesRoute(deps: GatewayDeps, req: Request, res: Response, where: IssueListScope): Promise<void> {
  const q = params(req, listShape);
  const not = parseParams(notShape, (q.not ?? {}) as Record<string, unknown>);
  const scopeName = (q.scope ?? where.defaultScope).replace(/-/g, "_");
  if (!where.project && !where.group && scopeName !== "all" && !req.principal) throw unauthorized();
  const c = ctx(deps, req, res);
  // Keyset pages only for a project's list (paginate_with_strategies) in creation order; for other
  // orders GitLab drops `pagination` and answers offset pages, and group and instance lists page by offset.
  const keyset = q.pagination === "keyset" && Boolean(where.project) && where.milestoneId === undefined && (q.order_by ?? "created_at") === "created_at";
  const bounds = keyset ? keysetBounds({ ...q, order_by: undefined }, "desc") : null;
  const page = bounds ? bounds.page : pageRequest(q);
  const authorId = q.author_id ?? (q.author_username ? await userIdOf(deps, req, q.author_username) : 0);
  const notAuthorId = not.author_id ?? (not.author_username ? await userIdOf(deps, req, not.author_username) : 0);
  const assigneeUserIds = await Promise.all((q.assignee_username ?? []).map((u) => userIdOf(deps, req, u)));
  const notAssignee = not.assignee_id ?? (not.assignee_username?.[0] ? String(await userIdOf(deps, req, not.assignee_username[0])) : undefined);
  const request: ListIssuesRequest = {
    actor: c.actor,
    project: where.project ?? "",
    group: where.group ?? "",
    state: q.state ?? "all",
    labels: q.labels ?? [],
    notLabels: not.labels ?? [],
    // milestone_id takes only the timebox words (None, Any, Upcoming, Started); on the milestone
    // issue routes it is the path's milestone instead.
    milestone:
      q.milestone ?? (where.milestoneId === undefined && q.milestone_id && /^(none|any|upcoming|started)$/i.test(q.milestone_id) ? q.milestone_id : undefined),
    notMilestone: not.milestone,
    assigneeId: q.assignee_id,
    notAssigneeId: notAssignee,
    assigneeUserIds,
    authorId,
    notAuthorId,
    myReactionEmoji: q.my_reaction_emoji,
    notMyReactionEmoji: not.my_reaction_emoji,
    search: q.search ?? "",
    searchIn: (q.in ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s === "title" || s === "description"),
    iids: q.iids ?? [],
    notIids: not.iids ?? [],
    createdAfter: q.created_after ? new Date(q.created_after).toISOString() : "",
    createdBefore: q.created_before ? new Date(q.created_before).toISOString() : "",
    updatedAfter: q.updated_after ? new Date(q.updated_after).toISOString() : "",
    updatedBefore: q.updated_before ? new Date(q.updated_before).toISOString() : "",
    dueDate: q.due_date ?? "",
    confidential: q.confidential,
    issueTypes: q.issue_type ? [q.issue_type] : [],
    notIssueTypes: not.issue_type ? [not.issue_type] : [],
    scope: scopeName,
    orderBy: bounds ? "id" : (q.order_by ?? "created_at"),
    sort: bounds ? bounds.sort : (q.sort ?? "desc"),
    idAfter: bounds?.idAfter ?? 0,
    idBefore: bounds?.idBefore ?? 0,
    page,
    milestoneId: where.milestoneId ?? 0,
  };
  const list = await deps.collab.ListIssues(request, c.call);
  const users = await usersById(deps, req, issueUserIds(list.issues));
  const context: IssueContext = where.project ? { kind: "project" } : where.group ? { kind: "group", fullPath: list.groupFullPath } : { kind: "instance" };
  const body = list.issues.map((i) => issueEntity(i, users, c.urls, { context, withLabelsDetails: q.with_labels_details }));
  if (bounds) {
    writeKeysetHeaders(deps, req, res, body, Number(list.pageInfo?.total ?? 0), page.perPage, bounds.sort, "cursor");
  } else {
    c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
  }
  res.json(body);
}

export function issuesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;

  const single = async (req: Request, res: Response, issue: Parameters<typeof issueEntity>[0], status = 200) => {
    const c = ctx(deps, req, res);
    const users = await usersById(deps, req, issueUserIds([issue]));
    res.status(status).json(issueEntity(issue, users, c.urls, { context: { kind: "project" }, includeSubscribed: true }));
  };

  r.get("/issues", scope("read"), (req, res) => listIssuesRoute(deps, req, res, { defaultScope: "created_by_me" }));
  r.get("/groups/:id/issues", scope("read"), (req, res) => listIssuesRoute(deps, req, res, { group: String(req.params.id), defaultScope: "all" }));
  r.get("/projects/:id/issues", scope("read"), (req, res) => listIssuesRoute(deps, req, res, { project: String(req.params.id), defaultScope: "all" }));

  r.get("/projects/:id/issues/:issue_iid", scope("read"), async (req, res) => {
    const q = params(req, { issue_iid: p.id("Issue") });
    const c = ctx(deps, req, res);
    await single(req, res, await collab.GetIssue({ actor: c.actor, project: String(req.params.id), issueIid: q.issue_iid }, c.call));
  });

  r.post("/projects/:id/issues", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      title: p.string(),
      description: p.string().optional(),
      confidential: p.bool().optional(),
      labels: labelList().optional(),
      milestone_id: optionalId().optional(),
      assignee_ids: p.array(p.int()).optional(),
      assignee_id: optionalId().optional(),
      due_date: p.string().optional(),
      issue_type: p.enum(ISSUE_TYPES).optional(),
      discussion_locked: p.bool().optional(),
      created_at: p.datetime().optional(),
      iid: p.int().optional(),
    });
    const c = ctx(deps, req, res);
    const created = await collab.CreateIssue(
      {
        actor: c.actor,
        project: String(req.params.id),
        title: q.title,
        description: q.description,
        confidential: q.confidential ?? false,
        labels: q.labels ?? [],
        milestoneId: q.milestone_id ?? 0,
        assigneeIds: q.assignee_ids ?? (q.assignee_id ? [q.assignee_id] : []),
        dueDate: q.due_date,
        issueType: q.issue_type ?? "",
        discussionLocked: q.discussion_locked,
        createdAt: q.created_at ? new Date(q.created_at).toISOString() : undefined,
        iid: q.iid ?? 0,
      },
      c.call,
    );
    await single(req, res, created, 201);
  });

  r.put("/projects/:id/issues/:issue_iid", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      issue_iid: p.id("Issue"),
      title: p.string().optional(),
      description: p.string().optional(),
      confidential: p.bool().optional(),
      labels: labelList().optional(),
      add_labels: labelList().optional(),
      remove_labels: labelList().optional(),
      milestone_id: optionalId().optional(),
      assignee_ids: z.union([p.array(p.int()), z.literal("")]).optional(),
      assignee_id: optionalId().optional(),
      due_date: p.string().optional(),
      issue_type: p.enum(ISSUE_TYPES).optional(),
      discussion_locked: p.bool().optional(),
      state_event: p.enum(["close", "reopen"]).optional(),
      updated_at: p.datetime().optional(),
    });
    const raw = requestParams(req);
    if (!UPDATE_FIELDS.some((f) => raw[f] !== undefined)) {
      throw new ApiError(400, { error: `${UPDATE_FIELDS.join(", ")} are missing, at least one parameter must be provided` });
    }
    const c = ctx(deps, req, res);
    const assignees = q.assignee_ids !== undefined ? (q.assignee_ids === "" ? [] : q.assignee_ids) : q.assignee_id !== undefined ? [q.assignee_id] : null;
    const updated = await collab.UpdateIssue(
      {
        actor: c.actor,
        project: String(req.params.id),
        issueIid: q.issue_iid,
        title: q.title,
        description: q.description,
        confidential: q.confidential,
        setLabels: q.labels !== undefined || "labels" in raw,
        labels: q.labels ?? [],
        addLabels: q.add_labels ?? [],
        removeLabels: q.remove_labels ?? [],
        milestoneId: "milestone_id" in raw ? (q.milestone_id ?? 0) : undefined,
        setAssignees: assignees !== null,
        assigneeIds: (assignees ?? []).filter((id) => id > 0),
        dueDate: "due_date" in raw ? (q.due_date ?? "") : undefined,
        issueType: q.issue_type,
        discussionLocked: q.discussion_locked,
        stateEvent: q.state_event ?? "",
        updatedAt: q.updated_at ? new Date(q.updated_at).toISOString() : undefined,
      },
      c.call,
    );
    await single(req, res, updated);
  });

  r.delete("/projects/:id/issues/:issue_iid", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { issue_iid: p.id("Issue") });
    const c = ctx(deps, req, res);
    await collab.DeleteIssue({ actor: c.actor, project: String(req.params.id), issueIid: q.issue_iid }, c.call);
    res.status(204).end();
  });

  // Resource events of issues and merge requests (lib/api/resource_*_events.rb mounts both): an
  // impossible merge request iid is `404 Not found` as NotesFinder's find_by! answers it.
  const eventables = [
    { path: "issues", type: "Issue", what: "Issue" },
    { path: "merge_requests", type: "MergeRequest", what: undefined },
  ] as const;
  for (const eventable of eventables) {
    for (const kind of ["label", "state", "milestone"] as const) {
      const base = `/projects/:id/${eventable.path}/:eventable_id/resource_${kind}_events`;
      r.get(base, scope("read"), async (req, res) => {
        const q = params(req, { eventable_id: p.id(eventable.what), ...pageShape });
        const c = ctx(deps, req, res);
        const page = pageRequest(q);
        const list = await collab.ListIssueResourceEvents(
          { actor: c.actor, project: String(req.params.id), issueIid: q.eventable_id, kind, page, eventableType: eventable.type },
          c.call,
        );
        const users = await usersById(
          deps,
          req,
          list.events.map((e) => Number(e.userId)),
        );
        c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
        res.json(list.events.map((e) => resourceEventEntity(kind, e, users, c.urls)));
      });
      r.get(`${base}/:event_id`, scope("read"), async (req, res) => {
        const q = params(req, { eventable_id: p.id(eventable.what), event_id: p.id() });
        const c = ctx(deps, req, res);
        const list = await collab.ListIssueResourceEvents(
          { actor: c.actor, project: String(req.params.id), issueIid: q.eventable_id, kind, eventId: q.event_id, eventableType: eventable.type },
          c.call,
        );
        const users = await usersById(
          deps,
          req,
          list.events.map((e) => Number(e.userId)),
        );
        res.json(resourceEventEntity(kind, list.events[0]!, users, c.urls));
      });
    }
  }

  return r;
}
