import { Router, type Request, type Response } from "express";
import type { Label__Output as Label } from "@quarry/proto/types/collab/v1/Label";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, declareParams, params, requestParams } from "../../http/params.ts";
import { groupLabelEntity, projectLabelEntity, type LabelOptions } from "../../entities/label.ts";
import { ctx } from "./context.ts";

/**
 * Project and group labels (GitLab's lib/api/labels.rb, group_labels.rb, the label part of
 * subscriptions.rb): stored in collab-service, which asks identity-service who may see the project
 * or group (invisible = 404) and who may change its labels (admin_label: Reporter or above, 403).
 * The deprecated `PUT`/`DELETE …/labels` with a `name` parameter stay: python-gitlab saves labels that way.
 * `PUT /projects/:id/labels/:label_id/promote` moves a project label to the project's group.
 */
export function labelsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;

  for (const kind of ["project", "group"] as const) {
    const base = kind === "project" ? "/projects/:id/labels" : "/groups/:id/labels";
    const entity = (l: Label, o?: LabelOptions) => (kind === "project" ? projectLabelEntity(l, o) : groupLabelEntity(l, o));
    const parent = (req: Request) => (kind === "project" ? { project: String(req.params.id) } : { group: String(req.params.id) });
    const updateFields = kind === "project" ? ["new_name", "color", "description", "priority"] : ["new_name", "color", "description"];

    r.get(base, scope("read"), async (req, res) => {
      const q = params(req, {
        with_counts: p.bool().default(false),
        include_ancestor_groups: p.bool().default(true),
        search: p.searchTerm("search").optional(),
        ...pageShape,
      });
      const c = ctx(deps, req, res);
      const page = pageRequest(q);
      const list = await collab.ListLabels(
        { actor: c.actor, parent: parent(req), includeAncestorGroups: q.include_ancestor_groups, search: q.search ?? "", page },
        c.call,
      );
      c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
      res.json(list.labels.map((l) => entity(l, { withCounts: q.with_counts })));
    });

    r.get(`${base}/:label_id`, scope("read"), async (req, res) => {
      const q = params(req, { label_id: p.string(), include_ancestor_groups: p.bool().default(true) });
      const c = ctx(deps, req, res);
      const label = await collab.GetLabel({ actor: c.actor, parent: parent(req), label: q.label_id, includeAncestorGroups: q.include_ancestor_groups }, c.call);
      res.json(entity(label));
    });

    r.post(base, scope("write"), async (req, res) => {
      requireUser(req);
      const q = params(req, {
        name: p.name("title"),
        color: p.string(),
        description: p.string().optional(),
        ...(kind === "project" ? { priority: p.int().optional() } : {}),
      });
      const c = ctx(deps, req, res);
      const label = await collab.CreateLabel(
        { actor: c.actor, parent: parent(req), name: q.name, color: q.color, description: q.description, priority: (q as { priority?: number }).priority },
        c.call,
      );
      res.status(201).json(entity(label));
    });

    // Declared up front too (declareParams): the update checks for at least one of them first.
    const updateShape = {
      new_name: p.name("title").optional(),
      color: p.string().optional(),
      description: p.string().optional(),
      // Grape's `allow_blank: true`: an empty or null priority removes it.
      ...(kind === "project"
        ? {
            priority: p
              .int()
              .optional()
              .or(
                p
                  .string()
                  .length(0)
                  .transform(() => undefined),
              ),
          }
        : {}),
    };
    /** PUT with the label in the path, or (deprecated) in a `name` parameter. */
    const update = async (req: Request, res: Response, label: string) => {
      const raw = requestParams(req);
      if (!updateFields.some((f) => raw[f] !== undefined)) {
        throw new ApiError(400, { error: `${updateFields.join(", ")} are missing, at least one parameter must be provided` });
      }
      const q = params(req, updateShape);
      const c = ctx(deps, req, res);
      const updatePriority = kind === "project" && "priority" in raw;
      const updated = await collab.UpdateLabel(
        {
          actor: c.actor,
          parent: parent(req),
          label,
          newName: q.new_name,
          color: q.color,
          description: q.description,
          updatePriority,
          priority: updatePriority ? (q as { priority?: number }).priority : undefined,
        },
        c.call,
      );
      res.json(entity(updated));
    };
    r.put(`${base}/:label_id`, scope("write"), declareParams(updateShape), async (req, res) => {
      requireUser(req);
      await update(req, res, String(req.params.label_id));
    });
    r.put(base, scope("write"), declareParams(updateShape), async (req, res) => {
      requireUser(req);
      await update(req, res, params(req, { name: p.string() }).name);
    });

    const remove = async (req: Request, res: Response, label: string) => {
      const c = ctx(deps, req, res);
      await collab.DeleteLabel({ actor: c.actor, parent: parent(req), label }, c.call);
      res.status(204).end();
    };
    r.delete(`${base}/:label_id`, scope("write"), async (req, res) => {
      requireUser(req);
      await remove(req, res, String(req.params.label_id));
    });
    r.delete(base, scope("write"), async (req, res) => {
      requireUser(req);
      await remove(req, res, params(req, { name: p.string() }).name);
    });

    if (kind === "project") {
      // Labels::PromoteService through promote_label: the project's group gets the label (GitLab's GroupLabel entity).
      r.put(`${base}/:label_id/promote`, scope("write"), async (req, res) => {
        requireUser(req);
        const c = ctx(deps, req, res);
        const promoted = await collab.PromoteLabel({ actor: c.actor, parent: parent(req), label: String(req.params.label_id) }, c.call);
        res.json(groupLabelEntity(promoted));
      });
    }

    // Subscriptions (lib/api/subscriptions.rb): 201 with the label, 304 when nothing changes.
    for (const action of ["subscribe", "unsubscribe"] as const) {
      r.post(`${base}/:label_id/${action}`, scope("write"), async (req, res) => {
        requireUser(req);
        const c = ctx(deps, req, res);
        const args = { actor: c.actor, parent: parent(req), label: String(req.params.label_id) };
        const out = action === "subscribe" ? await collab.SubscribeLabel(args, c.call) : await collab.UnsubscribeLabel(args, c.call);
        if (!out.changed) {
          res.status(304).end();
          return;
        }
        res.status(201).json(entity(out.label!));
      });
    }
  }

  return r;
}
