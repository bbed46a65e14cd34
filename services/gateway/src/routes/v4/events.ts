// GitLab's Events API (API::Events, the project events segment) and GET /user/activities: what
// activity-service recorded of contributions, and identity-service's users' last activity days.
// Visibility is decided here: events only in projects the caller may read (identity-service's
// ListVisibleProjects), confidential issues' events only where the caller may read them.
import { AccessLevel } from "@quarry/gitlab";
import type { ListEventsRequest } from "@quarry/proto/types/activity/v1/ListEventsRequest";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { type Request, type Response, Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor, requireUser, scope } from "../../http/auth.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { eventEntity, userActivityEntity } from "../../entities/event.ts";
import { usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";

/** Event.actions' keys (the `action` filter). */
export const EVENT_ACTION_KEYS = [
  "created",
  "updated",
  "closed",
  "reopened",
  "pushed",
  "commented",
  "merged",
  "joined",
  "left",
  "destroyed",
  "expired",
  "approved",
] as const;

/** Event::TARGET_TYPES' keys (the `target_type` filter). */
export const EVENT_TARGET_TYPE_KEYS = ["issue", "milestone", "merge_request", "note", "project", "snippet", "user", "wiki", "design"] as const;

/** Confidential issues (and notes on them, internal notes) need Reporter+ (or being the event's author). */
const CONFIDENTIAL_LEVEL = AccessLevel.REPORTER;

const filterShape = {
  ...pageShape,
  action: p.enum(EVENT_ACTION_KEYS).optional(),
  target_type: p.enum(EVENT_TARGET_TYPE_KEYS).optional(),
  before: z.string().optional(),
  after: z.string().optional(),
  sort: p.enum(["asc", "desc"]).optional(),
};

type FilterQuery = { [K in keyof typeof filterShape]: z.output<(typeof filterShape)[K]> };

/** A Grape Date parameter as YYYY-MM-DD (`400 {"error":"<name> is invalid"}` when it is no date). */
export function dayParam(value: string | undefined, name: string): string {
  if (value === undefined || value === "") return "";
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(t)) throw new ApiError(400, { error: `${name} is invalid` });
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * What the caller may see: events in the projects it can read (administrators: every existing
 * project; a deleted project's events are gone, as GitLab's EventsFinder joins projects), confidential
 * ones where it is a Reporter or more (administrators: everywhere).
 */
async function visibility(deps: GatewayDeps, req: Request, minAccessLevel = 0): Promise<Partial<ListEventsRequest>> {
  const viewerId = req.principal?.userId ?? 0;
  const { projects } = await deps.identity.ListVisibleProjects({ actor: actor(req), minAccessLevel }, { requestId: req.requestId });
  return {
    projectIds: projects.map((pr) => pr.id),
    allConfidential: Boolean(req.principal?.isAdmin),
    confidentialProjectIds: projects.filter((pr) => pr.accessLevel >= CONFIDENTIAL_LEVEL).map((pr) => pr.id),
    viewerId,
  };
}

/** Asks activity-service for a page and answers it as GitLab's Entities::Event with X-* headers. */
async function listAndAnswer(deps: GatewayDeps, req: Request, res: Response, q: FilterQuery, filters: Partial<ListEventsRequest>) {
  const c = ctx(deps, req, res);
  const result = await deps.activity.ListEvents(
    {
      ...filters,
      action: q.action ?? "",
      targetType: q.target_type ?? "",
      before: dayParam(q.before, "before"),
      after: dayParam(q.after, "after"),
      ascending: q.sort === "asc",
      page: pageRequest(q),
    },
    c.call,
  );
  c.paginate(result.pageInfo);
  const authorIds = result.events.map((e) => Number(e.authorId));
  for (const e of result.events) if (e.noteJson) authorIds.push(Number((JSON.parse(e.noteJson) as { author_id?: number }).author_id ?? 0));
  const users = await usersById(deps, req, authorIds);
  res.json(result.events.map((e) => eventEntity(e, users, c.urls)));
}

/** A user by id or username (API::Helpers#find_user), 404 `User Not Found` otherwise. */
async function findUser(deps: GatewayDeps, req: Request, idOrUsername: string): Promise<User> {
  const call = { requestId: req.requestId };
  if (/^\d+$/.test(idOrUsername)) return deps.identity.GetUser({ actor: actor(req), id: Number(idOrUsername) }, call);
  const { users } = await deps.identity.ListUsers({ actor: actor(req), username: idOrUsername, page: { page: 1, perPage: 1 } }, call);
  if (!users[0]) throw notFound("User");
  return users[0];
}

/** GET /events, /users/:id/events, /projects/:id/events, /user/activities. */
export function eventsRouter(deps: GatewayDeps): Router {
  const r = Router();

  r.get("/events", scope("read_user"), async (req, res) => {
    const me = requireUser(req);
    const q = params(req, { ...filterShape, scope: z.string().optional() });
    // scope=all: every event in the projects the caller is a member of (EventCollection over authorized_projects).
    if (q.scope === "all") {
      const member = await visibility(deps, req, AccessLevel.GUEST);
      await listAndAnswer(deps, req, res, q, { ...member, allConfidential: Boolean(me.isAdmin) });
      return;
    }
    await listAndAnswer(deps, req, res, q, { ...(await visibility(deps, req)), authorId: me.userId });
  });

  r.get("/users/:id/events", scope("read_user"), async (req, res) => {
    const q = params(req, { ...filterShape, id: p.string() });
    const user = await findUser(deps, req, q.id);
    // EventsFinder#cannot_access_private_profile?: a private profile's events are the user's and administrators' alone.
    const own = req.principal?.userId === Number(user.id);
    if (user.privateProfile && !own && !req.principal?.isAdmin) {
      ctx(deps, req, res).paginate({ total: 0, ...pageRequest(q) });
      res.json([]);
      return;
    }
    await listAndAnswer(deps, req, res, q, { ...(await visibility(deps, req)), authorId: Number(user.id) });
  });

  r.get("/projects/:id/events", scope("read"), async (req, res) => {
    const q = params(req, { ...filterShape, id: p.string() });
    const project = await deps.identity.GetProject({ actor: actor(req), idOrPath: q.id }, { requestId: req.requestId });
    const admin = Boolean(req.principal?.isAdmin);
    const level = Math.max(project.projectAccessLevel, project.groupAccessLevel);
    await listAndAnswer(deps, req, res, q, {
      projectIds: [project.id],
      confidentialProjectIds: admin || level >= CONFIDENTIAL_LEVEL ? [project.id] : [],
      viewerId: req.principal?.userId ?? 0,
    });
  });

  // Any signed-in user (under GitLab's `resource :user`); only administrators see private profiles.
  r.get("/user/activities", scope("read_user"), async (req, res) => {
    requireUser(req);
    const q = params(req, { ...pageShape, from: z.string().optional() });
    let from: string;
    if (q.from === undefined || q.from === "") {
      const d = new Date();
      d.setUTCMonth(d.getUTCMonth() - 6);
      from = new Date(d.getTime() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    } else {
      const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(q.from) ? `${q.from}T00:00:00Z` : q.from);
      if (Number.isNaN(t)) throw new ApiError(400, { error: "from is invalid" });
      // last_activity_on (a day) >= from (a time): a day counts when its midnight is not before `from`.
      const day = new Date(t).toISOString().slice(0, 10);
      from = t > Date.parse(`${day}T00:00:00Z`) ? new Date(t + 24 * 60 * 60 * 1000).toISOString().slice(0, 10) : day;
    }
    const c = ctx(deps, req, res);
    const result = await deps.identity.ListUserActivities({ actor: c.actor, from, page: pageRequest(q) }, c.call);
    c.paginate(result.pageInfo);
    res.json(result.activities.map(userActivityEntity));
  });

  return r;
}
