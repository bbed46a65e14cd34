import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireAdmin, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { personalAccessToken } from "../../entities/token.ts";
import { ctx } from "./context.ts";

/** GitLab's Entities::ImpersonationToken (with `token` only in the creation response). */
function impersonationToken(t: Parameters<typeof personalAccessToken>[0]) {
  const { token, ...rest } = personalAccessToken(t);
  return { ...rest, impersonation: true, ...(token ? { token } : {}) };
}

/**
 * /users/:user_id/impersonation_tokens (administrators): tokens an administrator makes to act as
 * the user. They are personal access tokens of that user marked `impersonation` (digests only),
 * and authenticate as the user everywhere a personal access token does.
 */
export function impersonationTokensRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;
  const base = "/users/:user_id/impersonation_tokens";

  r.get(base, scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { ...pageShape, user_id: p.id("User"), state: p.enum(["all", "active", "inactive"]).optional() });
    const c = ctx(deps, req, res);
    await identity.GetUser({ actor: c.actor, id: q.user_id }, c.call); // 404 User Not Found
    const state = q.state === "all" || !q.state ? "" : q.state;
    const result = await identity.ListPersonalAccessTokens(
      { actor: c.actor, page: pageRequest(q), userId: q.user_id, state, impersonation: true, search: "" },
      c.call,
    );
    c.paginate(result.pageInfo);
    res.json(result.tokens.map(impersonationToken));
  });

  r.post(base, scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, {
      user_id: p.id("User"),
      name: p.name("name").min(1),
      expires_at: p.date().optional(),
      scopes: p.array(z.string()).optional(),
    });
    const c = ctx(deps, req, res);
    await identity.GetUser({ actor: c.actor, id: q.user_id }, c.call);
    const token = await identity.CreatePersonalAccessToken(
      { actor: c.actor, userId: q.user_id, name: q.name, scopes: q.scopes ?? [], expiresAt: q.expires_at ?? "", impersonation: true },
      c.call,
    );
    res.status(201).json(impersonationToken(token));
  });

  r.get(`${base}/:impersonation_token_id`, scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { user_id: p.id("User"), impersonation_token_id: p.id("Impersonation Token") });
    const c = ctx(deps, req, res);
    await identity.GetUser({ actor: c.actor, id: q.user_id }, c.call);
    const token = await identity.GetPersonalAccessToken({ actor: c.actor, id: q.impersonation_token_id, userId: q.user_id, impersonation: true }, c.call);
    res.json(impersonationToken(token));
  });

  r.delete(`${base}/:impersonation_token_id`, scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { user_id: p.id("User"), impersonation_token_id: p.id("Impersonation Token") });
    const c = ctx(deps, req, res);
    await identity.GetUser({ actor: c.actor, id: q.user_id }, c.call);
    await identity.RevokePersonalAccessToken({ actor: c.actor, id: q.impersonation_token_id, userId: q.user_id, impersonation: true }, c.call);
    deps.tokenCache.evictToken(q.impersonation_token_id);
    res.status(204).end();
  });

  return r;
}
