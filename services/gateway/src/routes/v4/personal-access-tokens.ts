import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { personalAccessToken } from "../../entities/token.ts";
import { ctx } from "./context.ts";

/** The token id named by `:id`, where `self` is the token of the request. */
function tokenId(req: Request): number {
  if (req.params.id === "self") return requireUser(req).tokenId;
  return params(req, { id: p.id("Token") }).id;
}

/** Personal access tokens: administrator creation for a user, listing, self, revocation. */
export function personalAccessTokensRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  r.post("/users/:user_id/personal_access_tokens", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, {
      user_id: p.id("User"),
      name: p.name("name").min(1),
      scopes: p.array(z.string()).pipe(z.array(z.string()).min(1)),
      expires_at: p.date().optional(),
      description: p.name("description").optional(),
    });
    const c = ctx(deps, req, res);
    const token = await identity.CreatePersonalAccessToken(
      { actor: c.actor, userId: q.user_id, name: q.name, scopes: q.scopes, expiresAt: q.expires_at ?? "", description: q.description ?? "" },
      c.call,
    );
    res.status(201).json(personalAccessToken(token));
  });

  r.get("/personal_access_tokens", scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      ...pageShape,
      user_id: p.int().optional(),
      state: p.enum(["active", "inactive"]).optional(),
      revoked: p.bool().optional(),
      search: p.searchTerm("search").optional(),
    });
    const c = ctx(deps, req, res);
    const result = await identity.ListPersonalAccessTokens(
      { actor: c.actor, page: pageRequest(q), userId: q.user_id ?? 0, state: q.state ?? "", revoked: q.revoked, search: q.search ?? "" },
      c.call,
    );
    c.paginate(result.pageInfo);
    res.json(result.tokens.map(personalAccessToken));
  });

  r.get("/personal_access_tokens/:id", scope("read"), async (req, res) => {
    requireUser(req);
    const c = ctx(deps, req, res);
    res.json(personalAccessToken(await identity.GetPersonalAccessToken({ actor: c.actor, id: tokenId(req) }, c.call)));
  });

  r.delete("/personal_access_tokens/:id", scope("write"), async (req, res) => {
    requireUser(req);
    const id = tokenId(req);
    const c = ctx(deps, req, res);
    await identity.RevokePersonalAccessToken({ actor: c.actor, id }, c.call);
    deps.tokenCache.evictToken(id);
    res.status(204).end();
  });

  return r;
}
