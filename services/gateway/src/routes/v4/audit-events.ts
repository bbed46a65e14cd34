// GitLab's audit events API (EE's API::AuditEvents, the group and project audit_events segments):
// read-only views of what activity-service recorded. Who may read which events is decided here.
import { AccessLevel } from "@quarry/gitlab";
import type { ListAuditEventsRequest } from "@quarry/proto/types/activity/v1/ListAuditEventsRequest";
import { type Request, type Response, Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor, requireAdmin, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { keysetBounds, keysetShape, writeKeysetHeaders } from "../../http/keyset.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { auditEvent } from "../../entities/audit-event.ts";
import { ctx } from "./context.ts";

/** Document 3: each query covers at most 30 days. */
export const AUDIT_EVENTS_MAX_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

const ENTITY_TYPES = ["User", "Group", "Project", "Gitlab::Audit::InstanceScope"] as const;

const dateShape = {
  created_after: p.datetime().optional(),
  created_before: p.datetime().optional(),
};

const listShape = { ...pageShape, ...keysetShape, ...dateShape, order_by: z.string().optional(), sort: p.enum(["asc", "desc"]).optional() };

/**
 * The time window of a query: created_before defaults to now, created_after to 30 days before
 * created_before; a window wider than 30 days is GitLab's audit date-range refusal (400).
 */
export function auditWindow(q: { created_after?: string; created_before?: string }, now = new Date()) {
  const before = q.created_before ? new Date(q.created_before) : now;
  const after = q.created_after ? new Date(q.created_after) : new Date(before.getTime() - AUDIT_EVENTS_MAX_DAYS * DAY_MS);
  if (before.getTime() - after.getTime() > AUDIT_EVENTS_MAX_DAYS * DAY_MS) {
    throw new ApiError(400, { message: `400 Bad request - Date range limited to ${AUDIT_EVENTS_MAX_DAYS} days` });
  }
  return { createdAfter: after.toISOString(), createdBefore: before.toISOString() };
}

type ListQuery = z.infer<z.ZodObject<typeof listShape>>;

/** Asks activity-service for a page (keyset or offset) and answers it with GitLab's paging headers. */
async function listAndAnswer(deps: GatewayDeps, req: Request, res: Response, q: ListQuery, filters: Partial<ListAuditEventsRequest>) {
  const c = ctx(deps, req, res);
  const window = auditWindow(q);
  const keyset = q.pagination === "keyset" ? keysetBounds(q, "desc") : null;
  if (keyset && keyset.sort !== "desc") throw new ApiError(405, { message: "405 Method Not Allowed - Keyset pagination is only supported for sort=desc" });
  const result = await deps.activity.ListAuditEvents(
    {
      ...filters,
      ...window,
      page: keyset ? keyset.page : pageRequest(q),
      keyset: Boolean(keyset),
      idBefore: keyset?.idBefore ?? 0,
    },
    c.call,
  );
  if (keyset) writeKeysetHeaders(deps, req, res, result.events, Number(result.pageInfo?.total ?? 0), keyset.page.perPage, "desc", "cursor");
  else c.paginate(result.pageInfo);
  res.json(result.events.map(auditEvent));
}

/** GET /audit_events, /groups/:id/audit_events, /projects/:id/audit_events and their single-event routes. */
export function auditEventsRouter(deps: GatewayDeps): Router {
  const r = Router();

  r.get("/audit_events", scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { ...listShape, entity_type: p.enum(ENTITY_TYPES).optional(), entity_id: p.int().optional() });
    // Grape's `given :entity_id do requires :entity_type end`.
    if (q.entity_id !== undefined && !q.entity_type) throw new ApiError(400, { error: "entity_type is missing" });
    await listAndAnswer(deps, req, res, q, { entityType: q.entity_type ?? "", entityId: q.entity_id ?? 0 });
  });

  r.get("/audit_events/:audit_event_id", scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { audit_event_id: p.id() });
    const c = ctx(deps, req, res);
    res.json(auditEvent(await deps.activity.GetAuditEvent({ id: q.audit_event_id }, c.call)));
  });

  /** The group and what the caller may see of its events: all (Owner, admin), own (Developer, Maintainer), else 403. */
  async function groupScope(req: Request) {
    const group = await deps.identity.GetGroup({ actor: actor(req), idOrPath: String(req.params.id) }, { requestId: req.requestId });
    const admin = Boolean(req.principal?.isAdmin);
    if (!admin && group.callerAccessLevel < AccessLevel.DEVELOPER) throw new ApiError(403, { message: "403 Forbidden" });
    const all = admin || group.callerAccessLevel >= AccessLevel.OWNER;
    return { group, all, authorId: all ? 0 : (req.principal?.userId ?? 0) };
  }

  r.get("/groups/:id/audit_events", scope("read"), async (req, res) => {
    const q = params(req, { ...listShape, id: p.string() });
    const s = await groupScope(req);
    await listAndAnswer(deps, req, res, q, { entityType: "Group", entityId: s.group.id, authorId: s.authorId });
  });

  r.get("/groups/:id/audit_events/:audit_event_id", scope("read"), async (req, res) => {
    const q = params(req, { id: p.string(), audit_event_id: p.id() });
    const s = await groupScope(req);
    // Document 3: a single group event is for the group's Owners and administrators.
    if (!s.all) throw new ApiError(403, { message: "403 Forbidden" });
    const c = ctx(deps, req, res);
    res.json(auditEvent(await deps.activity.GetAuditEvent({ id: q.audit_event_id, entityType: "Group", entityId: s.group.id }, c.call)));
  });

  /** The project and what the caller may see of its events: all (Maintainer+, admin), own (Developer), else 403. */
  async function projectScope(req: Request) {
    const project = await deps.identity.GetProject({ actor: actor(req), idOrPath: String(req.params.id) }, { requestId: req.requestId });
    const admin = Boolean(req.principal?.isAdmin);
    const level = Math.max(project.projectAccessLevel, project.groupAccessLevel);
    if (!admin && level < AccessLevel.DEVELOPER) throw new ApiError(403, { message: "403 Forbidden" });
    const all = admin || level >= AccessLevel.MAINTAINER;
    return { project, all, authorId: all ? 0 : (req.principal?.userId ?? 0) };
  }

  r.get("/projects/:id/audit_events", scope("read"), async (req, res) => {
    const q = params(req, { ...listShape, id: p.string() });
    const s = await projectScope(req);
    await listAndAnswer(deps, req, res, q, { entityType: "Project", entityId: s.project.id, authorId: s.authorId });
  });

  r.get("/projects/:id/audit_events/:audit_event_id", scope("read"), async (req, res) => {
    const q = params(req, { id: p.string(), audit_event_id: p.id() });
    const s = await projectScope(req);
    // Document 3: a single project event needs at least Maintainer.
    if (!s.all) throw new ApiError(403, { message: "403 Forbidden" });
    const c = ctx(deps, req, res);
    res.json(auditEvent(await deps.activity.GetAuditEvent({ id: q.audit_event_id, entityType: "Project", entityId: s.project.id }, c.call)));
  });

  return r;
}
