import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { enterpriseUser } from "../../entities/enterprise-user.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { ctx } from "./context.ts";
import { creators } from "./users.ts";

/**
 * Group enterprise users (GitLab's API::GroupEnterpriseUsers): the users a top-level group claimed
 * (Quarry claims them through verified domains, see verified-domains.ts), for the group's Owners.
 */
export function enterpriseUsersRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;
  const base = "/groups/:id/enterprise_users";

  r.get(base, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      ...pageShape,
      username: p.searchTerm("username").optional(),
      search: p.searchTerm("search").optional(),
      active: p.bool().optional(),
      blocked: p.bool().optional(),
      created_after: p.datetime().optional(),
      created_before: p.datetime().optional(),
      two_factor: p.string().optional(),
    });
    const c = ctx(deps, req, res);
    const out = await identity.ListEnterpriseUsers(
      {
        actor: c.actor,
        group: String(req.params.id),
        page: pageRequest(q),
        username: q.username ?? "",
        search: q.search ?? "",
        active: q.active ?? false,
        blocked: q.blocked ?? false,
        createdAfter: q.created_after ?? "",
        createdBefore: q.created_before ?? "",
        twoFactor: q.two_factor ?? "",
      },
      c.call,
    );
    c.paginate(out.pageInfo);
    const by = await creators(deps, req, out.users);
    res.json(out.users.map((u) => enterpriseUser(u, c.urls, by.get(Number(u.createdById)))));
  });

  r.get(`${base}/:user_id`, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, { user_id: p.id() });
    const c = ctx(deps, req, res);
    const u = await identity.GetEnterpriseUser({ actor: c.actor, group: String(req.params.id), userId: q.user_id }, c.call);
    res.json(enterpriseUser(u, c.urls, (await creators(deps, req, [u])).get(Number(u.createdById))));
  });

  r.delete(`${base}/:user_id`, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { user_id: p.id(), hard_delete: p.bool().optional() });
    const c = ctx(deps, req, res);
    await identity.DeleteEnterpriseUser({ actor: c.actor, group: String(req.params.id), userId: q.user_id, hardDelete: q.hard_delete ?? false }, c.call);
    deps.tokenCache.evictUser(q.user_id);
    res.status(204).end();
  });

  r.patch(`${base}/:user_id/disable_two_factor`, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { user_id: p.id() });
    const c = ctx(deps, req, res);
    await identity.DisableEnterpriseUserTwoFactor({ actor: c.actor, group: String(req.params.id), userId: q.user_id }, c.call);
    res.status(204).end();
  });

  return r;
}
