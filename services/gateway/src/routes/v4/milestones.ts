import { Router } from "express";
import type { Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, declareParams, params, requestParams } from "../../http/params.ts";
import { milestoneEntity } from "../../entities/milestone.ts";
import { ctx } from "./context.ts";
import { listShape as issueListShape, listIssuesRoute } from "./issues.ts";

/**
 * Project and group milestones (GitLab's lib/api/milestones.rb, group_milestones.rb and
 * milestone_responses.rb), stored in collab-service; reading follows the project's or group's
 * visibility, changing needs admin_milestone (Reporter or above, 403); `…/milestones/:milestone_id/issues`
 * lists the milestone's issues the caller may read. Not here yet: the `/merge_requests` list,
 * burndown events, promote.
 */
const UPDATE_FIELDS = ["title", "description", "start_date", "due_date", "state_event"];

export function milestonesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;

  for (const kind of ["project", "group"] as const) {
    const base = kind === "project" ? "/projects/:id/milestones" : "/groups/:id/milestones";
    const parent = (req: Request) => (kind === "project" ? { project: String(req.params.id) } : { group: String(req.params.id) });

    r.get(base, scope("read"), async (req, res) => {
      const q = params(req, {
        state: p.enum(["active", "closed", "all"]).default("all"),
        iids: p.array(p.int()).optional(),
        title: p.string().optional(),
        search: p.searchTerm("search").optional(),
        include_parent_milestones: p.bool().optional(),
        include_ancestors: p.bool().optional(),
        updated_before: p.datetime().optional(),
        updated_after: p.datetime().optional(),
        ...pageShape,
      });
      if (q.include_ancestors !== undefined && q.include_parent_milestones !== undefined) {
        throw new ApiError(400, { error: "include_ancestors, include_parent_milestones are mutually exclusive" });
      }
      const c = ctx(deps, req, res);
      const page = pageRequest(q);
      const list = await collab.ListMilestones(
        {
          actor: c.actor,
          parent: parent(req),
          state: q.state,
          iids: q.iids ?? [],
          title: q.title,
          search: q.search ?? "",
          includeAncestors: q.include_ancestors ?? q.include_parent_milestones ?? false,
          updatedBefore: q.updated_before ? new Date(q.updated_before).toISOString() : "",
          updatedAfter: q.updated_after ? new Date(q.updated_after).toISOString() : "",
          page,
        },
        c.call,
      );
      c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
      res.json(list.milestones.map((m) => milestoneEntity(m, c.urls)));
    });

    r.get(`${base}/:milestone_id`, scope("read"), async (req, res) => {
      const q = params(req, { milestone_id: p.id() });
      const c = ctx(deps, req, res);
      res.json(milestoneEntity(await collab.GetMilestone({ actor: c.actor, parent: parent(req), milestoneId: q.milestone_id }, c.call), c.urls));
    });

    // The issue list's parameters, declared up front (declareParams): the milestone is looked up first.
    r.get(`${base}/:milestone_id/issues`, scope("read"), declareParams(issueListShape), async (req, res) => {
      const q = params(req, { milestone_id: p.id() });
      const c = ctx(deps, req, res);
      // 404 for a milestone that is not the parent's, before listing anything.
      const m = await collab.GetMilestone({ actor: c.actor, parent: parent(req), milestoneId: q.milestone_id }, c.call);
      const where = kind === "project" ? { project: String(req.params.id) } : { group: String(req.params.id) };
      await listIssuesRoute(deps, req, res, { ...where, milestoneId: Number(m.id), defaultScope: "all" });
    });

    r.post(base, scope("write"), async (req, res) => {
      requireUser(req);
      const q = params(req, { title: p.string(), description: p.string().optional(), due_date: p.string().optional(), start_date: p.string().optional() });
      const c = ctx(deps, req, res);
      const created = await collab.CreateMilestone(
        { actor: c.actor, parent: parent(req), title: q.title, description: q.description, dueDate: q.due_date, startDate: q.start_date },
        c.call,
      );
      res.status(201).json(milestoneEntity(created, c.urls));
    });

    r.put(`${base}/:milestone_id`, scope("write"), async (req, res) => {
      requireUser(req);
      const q = params(req, {
        milestone_id: p.id(),
        title: p.string().optional(),
        description: p.string().optional(),
        due_date: p.string().optional(),
        start_date: p.string().optional(),
        state_event: p.enum(["close", "activate"]).optional(),
      });
      const raw = requestParams(req);
      if (!UPDATE_FIELDS.some((f) => raw[f] !== undefined)) {
        throw new ApiError(400, { error: `${UPDATE_FIELDS.join(", ")} are missing, at least one parameter must be provided` });
      }
      const c = ctx(deps, req, res);
      const updated = await collab.UpdateMilestone(
        {
          actor: c.actor,
          parent: parent(req),
          milestoneId: q.milestone_id,
          title: q.title,
          description: q.description,
          // A null date clears it, as Rails assigns nil.
          dueDate: "due_date" in raw ? (q.due_date ?? "") : undefined,
          startDate: "start_date" in raw ? (q.start_date ?? "") : undefined,
          stateEvent: q.state_event ?? "",
        },
        c.call,
      );
      res.json(milestoneEntity(updated, c.urls));
    });

    r.delete(`${base}/:milestone_id`, scope("write"), async (req, res) => {
      requireUser(req);
      const q = params(req, { milestone_id: p.id() });
      const c = ctx(deps, req, res);
      await collab.DeleteMilestone({ actor: c.actor, parent: parent(req), milestoneId: q.milestone_id }, c.call);
      res.status(204).end();
    });
  }

  return r;
}
