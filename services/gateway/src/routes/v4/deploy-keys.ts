// Deploy keys (lib/api/deploy_keys.rb): a project's (Maintainer) and the instance's (administrators).
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { deployKey, deployKeysProject } from "../../entities/ssh-key.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { ctx } from "./context.ts";

export function deployKeysRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  r.get("/deploy_keys", scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListDeployKeys({ actor: c.actor, project: "", page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.keys.map((k) => deployKey(k, { withProjects: true })));
  });

  r.get("/projects/:id/deploy_keys", scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListDeployKeys({ actor: c.actor, project: String(req.params.id), page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.keys.map(deployKeysProject));
  });

  r.get("/projects/:id/deploy_keys/:key_id", scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key_id: p.id() });
    const c = ctx(deps, req, res);
    res.json(deployKeysProject(await identity.GetDeployKey({ actor: c.actor, project: String(req.params.id), keyId: q.key_id }, c.call)));
  });

  r.post("/projects/:id/deploy_keys", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key: z.string(), title: z.string(), can_push: p.bool().optional(), expires_at: p.datetime().optional() });
    const c = ctx(deps, req, res);
    const key = await identity.CreateDeployKey(
      { actor: c.actor, project: String(req.params.id), key: q.key, title: q.title, canPush: q.can_push ?? false, expiresAt: q.expires_at ?? "" },
      c.call,
    );
    res.status(201).json(deployKeysProject(key));
  });

  r.put("/projects/:id/deploy_keys/:key_id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key_id: p.id(), title: z.string().optional(), can_push: p.bool().optional() });
    if (q.title === undefined && q.can_push === undefined)
      throw new ApiError(400, { error: "title, can_push are missing, at least one parameter must be provided" });
    const c = ctx(deps, req, res);
    const key = await identity.UpdateDeployKey(
      { actor: c.actor, project: String(req.params.id), keyId: q.key_id, title: q.title, canPush: q.can_push },
      c.call,
    );
    res.json(deployKeysProject(key));
  });

  r.post("/projects/:id/deploy_keys/:key_id/enable", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key_id: p.id() });
    const c = ctx(deps, req, res);
    res.status(201).json(deployKey(await identity.EnableDeployKey({ actor: c.actor, project: String(req.params.id), keyId: q.key_id }, c.call)));
  });

  r.delete("/projects/:id/deploy_keys/:key_id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key_id: p.id() });
    const c = ctx(deps, req, res);
    await identity.DeleteDeployKey({ actor: c.actor, project: String(req.params.id), keyId: q.key_id }, c.call);
    res.status(204).end();
  });

  return r;
}
