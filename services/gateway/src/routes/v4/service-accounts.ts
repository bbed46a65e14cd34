import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { groupServiceAccount, serviceAccount, serviceAccountBasic } from "../../entities/account.ts";
import { personalAccessToken } from "../../entities/token.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { ctx } from "./context.ts";

const TOKEN_SORTS = ["created_asc", "created_desc", "expires_asc", "expires_desc", "last_used_asc", "last_used_desc", "name_asc", "name_desc"] as const;

/**
 * Service accounts (GitLab's API::ServiceAccounts and API::GroupServiceAccounts): instance accounts
 * for administrators; group accounts for the Owners of a top-level group (and administrators),
 * with the personal access tokens of those accounts.
 */
export function serviceAccountsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;
  const host = () => {
    try {
      return new URL(deps.config.externalUrl).hostname;
    } catch {
      return "localhost";
    }
  };
  const accountInput = { name: p.name("name").optional(), username: p.name("username").optional(), email: p.name("email").optional() };
  const listShape = { ...pageShape, order_by: p.enum(["id", "username"]).optional(), sort: p.enum(["asc", "desc"]).optional() };

  // ---------- instance service accounts (administrators)
  r.get("/service_accounts", scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, listShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListServiceAccounts({ actor: c.actor, orderBy: q.order_by ?? "id", sort: q.sort ?? "desc", page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.accounts.map(serviceAccountBasic));
  });

  r.post("/service_accounts", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, accountInput);
    const c = ctx(deps, req, res);
    const a = await identity.CreateServiceAccount(
      { actor: c.actor, name: q.name ?? "", username: q.username ?? "", email: q.email ?? "", host: host() },
      c.call,
    );
    res.status(201).json(serviceAccount(a));
  });

  r.patch("/service_accounts/:id", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User"), ...accountInput });
    const c = ctx(deps, req, res);
    const a = await identity.UpdateServiceAccount({ actor: c.actor, userId: q.id, name: q.name, username: q.username, email: q.email }, c.call);
    res.json(serviceAccount(a));
  });

  // ---------- group service accounts (Owners of top-level groups, administrators)
  const g = "/groups/:id/service_accounts";
  r.get(g, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string(), ...listShape });
    const c = ctx(deps, req, res);
    const out = await identity.ListServiceAccounts(
      { actor: c.actor, group: q.id, orderBy: q.order_by ?? "id", sort: q.sort ?? "desc", page: pageRequest(q) },
      c.call,
    );
    c.paginate(out.pageInfo);
    res.json(out.accounts.map(groupServiceAccount));
  });

  r.post(g, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string(), ...accountInput });
    const c = ctx(deps, req, res);
    const a = await identity.CreateServiceAccount(
      { actor: c.actor, group: q.id, name: q.name ?? "", username: q.username ?? "", email: q.email ?? "", host: host() },
      c.call,
    );
    res.status(201).json(serviceAccount(a));
  });

  r.patch(`${g}/:user_id`, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string(), user_id: p.id("User"), ...accountInput });
    const c = ctx(deps, req, res);
    const a = await identity.UpdateServiceAccount(
      { actor: c.actor, group: q.id, userId: q.user_id, name: q.name, username: q.username, email: q.email },
      c.call,
    );
    res.json(serviceAccount(a));
  });

  r.delete(`${g}/:user_id`, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string(), user_id: p.id("User"), hard_delete: p.bool().optional() });
    const c = ctx(deps, req, res);
    await identity.DeleteServiceAccount({ actor: c.actor, group: q.id, userId: q.user_id, hardDelete: q.hard_delete ?? false }, c.call);
    res.status(204).end();
  });

  r.get(`${g}/:user_id/personal_access_tokens`, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      ...pageShape,
      id: p.string(),
      user_id: p.id("User"),
      created_after: p.datetime().optional(),
      created_before: p.datetime().optional(),
      last_used_after: p.datetime().optional(),
      last_used_before: p.datetime().optional(),
      expires_after: p.date().optional(),
      expires_before: p.date().optional(),
      revoked: p.bool().optional(),
      search: p.searchTerm("search").optional(),
      sort: p.enum(TOKEN_SORTS).optional(),
      state: p.enum(["active", "inactive"]).optional(),
    });
    const c = ctx(deps, req, res);
    const out = await identity.ListServiceAccountTokens(
      {
        actor: c.actor,
        group: q.id,
        userId: q.user_id,
        page: pageRequest(q),
        createdAfter: q.created_after ?? "",
        createdBefore: q.created_before ?? "",
        lastUsedAfter: q.last_used_after ?? "",
        lastUsedBefore: q.last_used_before ?? "",
        expiresAfter: q.expires_after ?? "",
        expiresBefore: q.expires_before ?? "",
        revoked: q.revoked,
        search: q.search ?? "",
        sort: q.sort ?? "",
        state: q.state ?? "",
      },
      c.call,
    );
    c.paginate(out.pageInfo);
    res.json(out.tokens.map(personalAccessToken));
  });

  r.post(`${g}/:user_id/personal_access_tokens`, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      id: p.string(),
      user_id: p.id("User"),
      name: p.name("name").min(1),
      scopes: p.array(z.string()),
      description: p.name("description").optional(),
      expires_at: p.date().optional(),
    });
    const c = ctx(deps, req, res);
    const t = await identity.CreateServiceAccountToken(
      { actor: c.actor, group: q.id, userId: q.user_id, name: q.name, scopes: q.scopes, description: q.description ?? "", expiresAt: q.expires_at ?? "" },
      c.call,
    );
    res.status(201).json(personalAccessToken(t));
  });

  r.delete(`${g}/:user_id/personal_access_tokens/:token_id`, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string(), user_id: p.id("User"), token_id: p.id("Token") });
    const c = ctx(deps, req, res);
    await identity.RevokeServiceAccountToken({ actor: c.actor, group: q.id, userId: q.user_id, tokenId: q.token_id }, c.call);
    deps.tokenCache.evictToken(q.token_id);
    res.status(204).end();
  });

  return r;
}
