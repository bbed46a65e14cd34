import { RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { assertNotBlank, impossibleId, p, pageShape, declareParams, params, requestParams } from "../../http/params.ts";
import { errorTrackingClientKeyEntity, errorTrackingErrorEntity, errorTrackingEventEntity, errorTrackingSettingEntity } from "../../entities/error-tracking.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/**
 * Error tracking (GitLab's lib/api/error_tracking/project_settings.rb and client_keys.rb): every route
 * needs `admin_operations` (Maintainer; lower roles 403, invisible projects 404). The errors lists are
 * Quarry's own extension over what the collector (error-tracking-collector.ts) stored.
 */
export function errorTrackingRouter(deps: GatewayDeps): Router {
  const r = Router();
  const et = deps.errorTracking;
  const base = "/projects/:id/error_tracking";
  const authorize = async (req: Request) => (await authorizeProject(deps, req, "admin_project")).project;
  /** A path id that is not an id finds no record. */
  const recordId = (req: Request, name: string) => {
    const raw = String(req.params[name]);
    if (!/^\d+$/.test(raw) || impossibleId(raw)) throw new ApiError(404, { message: RECORD_NOT_FOUND_MESSAGE });
    return Number(raw);
  };

  r.get(`${base}/settings`, scope("read"), async (req, res) => {
    const project = await authorize(req);
    const c = ctx(deps, req, res);
    res.json(errorTrackingSettingEntity(await et.GetSettings({ projectId: project.id }, c.call)));
  });

  // PATCH changes configured settings (404 when none); PUT (integrated tracking) sets both and creates them.
  // Shapes declared up front (declareParams): authorization comes before the parameters.
  const patchShape = { active: p.bool(), integrated: p.bool().optional() };
  r.patch(`${base}/settings`, scope("write"), declareParams(patchShape), async (req, res) => {
    const project = await authorize(req);
    // Grape: `active` is `allow_blank: false`.
    assertNotBlank(requestParams(req), ["active"]);
    const q = params(req, patchShape);
    const c = ctx(deps, req, res);
    res.json(errorTrackingSettingEntity(await et.UpdateSettings({ projectId: project.id, active: q.active, integrated: q.integrated }, c.call)));
  });

  const putShape = { active: p.bool(), integrated: p.bool() };
  r.put(`${base}/settings`, scope("write"), declareParams(putShape), async (req, res) => {
    const project = await authorize(req);
    assertNotBlank(requestParams(req), ["active"]);
    const q = params(req, putShape);
    const c = ctx(deps, req, res);
    res.json(errorTrackingSettingEntity(await et.UpdateSettings({ projectId: project.id, active: q.active, integrated: q.integrated, create: true }, c.call)));
  });

  r.get(`${base}/client_keys`, scope("read"), declareParams(pageShape), async (req, res) => {
    const project = await authorize(req);
    const c = ctx(deps, req, res);
    const page = pageRequest(params(req, pageShape));
    const list = await et.ListClientKeys({ projectId: project.id, page: page.page, perPage: page.perPage }, c.call);
    c.paginate({ total: Number(list.total), ...page });
    res.json(list.keys.map((k) => errorTrackingClientKeyEntity(k, deps.config.externalUrl)));
  });

  r.post(`${base}/client_keys`, scope("write"), async (req, res) => {
    const project = await authorize(req);
    const c = ctx(deps, req, res);
    res.status(201).json(errorTrackingClientKeyEntity(await et.CreateClientKey({ projectId: project.id }, c.call), deps.config.externalUrl));
  });

  // GitLab presents the destroyed key (200), not 204.
  r.delete(`${base}/client_keys/:key_id`, scope("write"), async (req, res) => {
    const project = await authorize(req);
    const keyId = recordId(req, "key_id");
    const c = ctx(deps, req, res);
    res.json(errorTrackingClientKeyEntity(await et.DeleteClientKey({ projectId: project.id, keyId }, c.call), deps.config.externalUrl));
  });

  // ErrorTracking::ErrorsFinder's `status` and `sort`, plus a search of name and description.
  const errorsShape = {
    ...pageShape,
    status: p.enum(["unresolved", "resolved", "ignored"]).optional(),
    sort: p.enum(["last_seen", "first_seen", "frequency"]).optional(),
    search: p.string().optional(),
  };
  r.get(`${base}/errors`, scope("read"), declareParams(errorsShape), async (req, res) => {
    const project = await authorize(req);
    const q = params(req, errorsShape);
    const c = ctx(deps, req, res);
    const page = pageRequest(q);
    const list = await et.ListErrors(
      { projectId: project.id, page: page.page, perPage: page.perPage, status: q.status ?? "", sort: q.sort ?? "", search: q.search ?? "" },
      c.call,
    );
    c.paginate({ total: Number(list.total), ...page });
    res.json(list.errors.map(errorTrackingErrorEntity));
  });

  r.get(`${base}/errors/:error_id`, scope("read"), async (req, res) => {
    const project = await authorize(req);
    const errorId = recordId(req, "error_id");
    const c = ctx(deps, req, res);
    res.json(errorTrackingErrorEntity(await et.GetError({ projectId: project.id, errorId }, c.call)));
  });

  // Resolve, ignore or reopen (what GitLab's and Sentry's error pages offer; GitLab has no REST route).
  const statusShape = { status: p.enum(["unresolved", "resolved", "ignored"]) };
  r.put(`${base}/errors/:error_id`, scope("write"), declareParams(statusShape), async (req, res) => {
    const project = await authorize(req);
    const errorId = recordId(req, "error_id");
    const q = params(req, statusShape);
    const c = ctx(deps, req, res);
    res.json(errorTrackingErrorEntity(await et.UpdateError({ projectId: project.id, errorId, status: q.status }, c.call)));
  });

  r.get(`${base}/errors/:error_id/events`, scope("read"), declareParams(pageShape), async (req, res) => {
    const project = await authorize(req);
    const errorId = recordId(req, "error_id");
    const c = ctx(deps, req, res);
    const page = pageRequest(params(req, pageShape));
    const list = await et.ListErrorEvents({ projectId: project.id, errorId, page: page.page, perPage: page.perPage }, c.call);
    c.paginate({ total: Number(list.total), ...page });
    res.json(list.events.map(errorTrackingEventEntity));
  });

  return r;
}
