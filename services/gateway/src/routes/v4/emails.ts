import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { email } from "../../entities/account.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { ctx } from "./context.ts";
import { applyAccessChange } from "../../http/access-evictions.ts";

/**
 * E-mail addresses (GitLab's /user/emails and /users/:id/emails): the primary is listed first, as
 * a row of its own; added addresses stay unconfirmed (confirmed_at null) until the link mailed to
 * them is followed (GET /users/confirmation, emailConfirmationRouter), unless an administrator
 * skips confirmation.
 */
export function emailsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  r.get("/user/emails", scope("read_user"), async (req, res) => {
    requireUser(req);
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListEmails({ actor: c.actor, page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.emails.map(email));
  });

  r.get("/user/emails/:email_id", scope("read_user"), async (req, res) => {
    requireUser(req);
    const q = params(req, { email_id: p.id("Email") });
    const c = ctx(deps, req, res);
    res.json(email(await identity.GetEmail({ actor: c.actor, emailId: q.email_id }, c.call)));
  });

  r.post("/user/emails", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { email: p.string() });
    const c = ctx(deps, req, res);
    res.status(201).json(email(await identity.CreateEmail({ actor: c.actor, email: q.email }, c.call)));
  });

  r.delete("/user/emails/:email_id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { email_id: p.id("Email") });
    const c = ctx(deps, req, res);
    await identity.DeleteEmail({ actor: c.actor, emailId: q.email_id }, c.call);
    res.status(204).end();
  });

  r.get("/users/:id/emails", scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { ...pageShape, id: p.id("User") });
    const c = ctx(deps, req, res);
    const out = await identity.ListEmails({ actor: c.actor, userId: q.id, page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.emails.map(email));
  });

  r.post("/users/:id/emails", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User"), email: p.string(), skip_confirmation: p.bool().optional() });
    const c = ctx(deps, req, res);
    const created = await identity.CreateEmail({ actor: c.actor, userId: q.id, email: q.email, skipConfirmation: q.skip_confirmation ?? false }, c.call);
    res.status(201).json(email(created));
  });

  r.delete("/users/:id/emails/:email_id", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User"), email_id: p.id("Email") });
    const c = ctx(deps, req, res);
    await identity.DeleteEmail({ actor: c.actor, userId: q.id, emailId: q.email_id }, c.call);
    res.status(204).end();
  });

  return r;
}

/**
 * GitLab's web route `GET /users/confirmation?confirmation_token=…` (Devise's confirmations): the
 * link in the confirmation mail. Quarry has no web UI: it answers a line of text.
 */
export function emailConfirmationRouter(deps: GatewayDeps): Router {
  const r = Router();
  r.get("/users/confirmation", async (req, res) => {
    const token = typeof req.query.confirmation_token === "string" ? req.query.confirmation_token : "";
    try {
      const confirmed = await deps.identity.ConfirmEmail({ confirmationToken: token }, { requestId: req.requestId });
      // A write behind a GET: the user's cached answers go at once (identity's event follows for other gateways).
      applyAccessChange(deps, { user_ids: [Number(confirmed.userId)] });
    } catch (err) {
      if ((err as { code?: number }).code === 3) {
        res.status(422).type("text/plain").send("Confirmation token is invalid\n");
        return;
      }
      throw err;
    }
    res.status(200).type("text/plain").send("Your email address has been successfully confirmed.\n");
  });
  return r;
}
