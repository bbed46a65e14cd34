import { DEPLOY_TOKEN_SCOPES } from "@quarry/gitlab";
// Deploy tokens (lib/api/deploy_tokens.rb): the instance's (administrators), a project's and a
// group's (Maintainer+; identity-service checks the role). The token's value is answered once,
// on creation; git over HTTP takes it as the password with the token's username (git-http.ts).
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { deployToken, deployTokenWithToken } from "../../entities/deploy-token.ts";
import { requireAdmin, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { ctx } from "./context.ts";

const listShape = { ...pageShape, active: p.bool().optional() };
const createShape = { name: z.string(), scopes: p.array(p.enum(DEPLOY_TOKEN_SCOPES)), expires_at: z.string().optional(), username: z.string().optional() };

/** `expires_at` as Grape's DateTime coercion takes it: anything else is `expires_at is invalid`. */
function expiresAt(value: string | undefined): string {
  if (value === undefined || value === "") return "";
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new ApiError(400, { error: "expires_at is invalid" });
  return new Date(at).toISOString();
}

export function deployTokensRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  r.get("/deploy_tokens", scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, listShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListDeployTokens({ actor: c.actor, active: q.active, page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.tokens.map(deployToken));
  });

  for (const kind of ["projects", "groups"] as const) {
    const holder = (id: string) => (kind === "projects" ? { project: id } : { group: id });

    r.get(`/${kind}/:id/deploy_tokens`, scope("read"), async (req, res) => {
      const q = params(req, listShape);
      const c = ctx(deps, req, res);
      const out = await identity.ListDeployTokens({ actor: c.actor, ...holder(String(req.params.id)), active: q.active, page: pageRequest(q) }, c.call);
      c.paginate(out.pageInfo);
      res.json(out.tokens.map(deployToken));
    });

    r.post(`/${kind}/:id/deploy_tokens`, scope("write"), async (req, res) => {
      const q = params(req, createShape);
      const c = ctx(deps, req, res);
      const t = await identity.CreateDeployToken(
        { actor: c.actor, ...holder(String(req.params.id)), name: q.name, scopes: q.scopes, expiresAt: expiresAt(q.expires_at), username: q.username ?? "" },
        c.call,
      );
      res.status(201).json(deployTokenWithToken(t));
    });

    r.get(`/${kind}/:id/deploy_tokens/:token_id`, scope("read"), async (req, res) => {
      const q = params(req, { token_id: p.id() });
      const c = ctx(deps, req, res);
      res.json(deployToken(await identity.GetDeployToken({ actor: c.actor, ...holder(String(req.params.id)), tokenId: q.token_id }, c.call)));
    });

    r.delete(`/${kind}/:id/deploy_tokens/:token_id`, scope("write"), async (req, res) => {
      const q = params(req, { token_id: p.id() });
      const c = ctx(deps, req, res);
      await identity.DeleteDeployToken({ actor: c.actor, ...holder(String(req.params.id)), tokenId: q.token_id }, c.call);
      res.status(204).end();
    });
  }

  return r;
}
