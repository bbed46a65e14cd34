import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { verifiedDomain } from "../../entities/enterprise-user.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { ctx } from "./context.ts";

/**
 * Verified domains of a top-level group (Quarry extension, for the Owners and administrators): how
 * users become enterprise users. POST answers the code to publish as the TXT record
 * `_gitlab-pages-verification-code.<domain>` = `gitlab-pages-verification-code=<code>`; `verify`
 * looks it up. Administrators may add a domain with `verified: true`.
 */
export function verifiedDomainsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;
  const base = "/groups/:id/verified_domains";

  r.get(base, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListVerifiedDomains({ actor: c.actor, group: String(req.params.id), page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.domains.map(verifiedDomain));
  });

  r.post(base, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { domain: p.name("domain", 253), verified: p.bool().optional() });
    const c = ctx(deps, req, res);
    const d = await identity.CreateVerifiedDomain({ actor: c.actor, group: String(req.params.id), domain: q.domain, verified: q.verified ?? false }, c.call);
    res.status(201).json(verifiedDomain(d));
  });

  r.delete(`${base}/:domain`, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { domain: z.string() });
    const c = ctx(deps, req, res);
    await identity.DeleteVerifiedDomain({ actor: c.actor, group: String(req.params.id), domain: q.domain }, c.call);
    res.status(204).end();
  });

  r.post(`${base}/:domain/verify`, scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { domain: z.string() });
    const c = ctx(deps, req, res);
    const d = await identity.VerifyVerifiedDomain({ actor: c.actor, group: String(req.params.id), domain: q.domain }, c.call);
    res.json(verifiedDomain(d));
  });

  return r;
}
