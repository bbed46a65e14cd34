// Users' SSH keys (lib/api/users.rb: /user/keys, /users/:id/keys) and lookups by id or
// fingerprint (lib/api/keys.rb). Keys are validated, fingerprinted and stored by identity-service.
import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { groupSshCertificate, sshKey, sshKeyWithUser } from "../../entities/ssh-key.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { ctx } from "./context.ts";

const USAGE_TYPES = ["auth", "signing", "auth_and_signing"] as const;

/** POST's parameters, in Grape's order (`key is missing, title is missing`). */
const createShape = {
  key: z.string(),
  title: z.string(),
  expires_at: p.datetime().optional(),
  usage_type: p.enum(USAGE_TYPES).optional(),
};

/** `:id` of /users/:id/keys: an id or a username. */
function userParam(req: Request): string {
  return String(req.params.id);
}

export function keysRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  r.get("/user/keys", scope("read_user"), async (req, res) => {
    requireUser(req);
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListSshKeys({ actor: c.actor, user: "", page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.keys.map((k) => sshKey(k, c.urls)));
  });

  r.get("/user/keys/:key_id", scope("read_user"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key_id: p.id("Key") });
    const c = ctx(deps, req, res);
    res.json(sshKey(await identity.GetSshKey({ actor: c.actor, user: "", keyId: q.key_id }, c.call), c.urls));
  });

  r.post("/user/keys", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, createShape);
    const c = ctx(deps, req, res);
    const key = await identity.CreateSshKey(
      { actor: c.actor, userId: 0, title: q.title, key: q.key, expiresAt: q.expires_at ?? "", usageType: q.usage_type ?? "" },
      c.call,
    );
    res.status(201).json(sshKey(key, c.urls));
  });

  r.delete("/user/keys/:key_id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key_id: p.id("Key") });
    const c = ctx(deps, req, res);
    await identity.DeleteSshKey({ actor: c.actor, user: "", keyId: q.key_id }, c.call);
    res.status(204).end();
  });

  // Anyone may list a user's keys (GitLab's endpoint does not authenticate).
  r.get("/users/:id/keys", scope("read_user"), async (req, res) => {
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListSshKeys({ actor: c.actor, user: userParam(req), page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.keys.map((k) => sshKey(k, c.urls)));
  });

  r.get("/users/:id/keys/:key_id", scope("read_user"), async (req, res) => {
    const q = params(req, { key_id: p.id("Key") });
    const c = ctx(deps, req, res);
    res.json(sshKey(await identity.GetSshKey({ actor: c.actor, user: userParam(req), keyId: q.key_id }, c.call), c.urls));
  });

  r.post("/users/:id/keys", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User"), ...createShape });
    const c = ctx(deps, req, res);
    const key = await identity.CreateSshKey(
      { actor: c.actor, userId: q.id, title: q.title, key: q.key, expiresAt: q.expires_at ?? "", usageType: q.usage_type ?? "" },
      c.call,
    );
    res.status(201).json(sshKey(key, c.urls));
  });

  r.delete("/users/:id/keys/:key_id", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User"), key_id: p.id("Key") });
    const c = ctx(deps, req, res);
    await identity.DeleteSshKey({ actor: c.actor, user: String(q.id), keyId: q.key_id }, c.call);
    res.status(204).end();
  });

  // Administrators: any key by id, or by fingerprint.
  r.get("/keys/:id", scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id() });
    const c = ctx(deps, req, res);
    res.json(sshKeyWithUser(await identity.GetSshKey({ actor: c.actor, user: "", keyId: q.id, anyUser: true }, c.call), c.urls));
  });

  r.get("/keys", scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { fingerprint: z.string() });
    const c = ctx(deps, req, res);
    res.json(sshKeyWithUser(await identity.FindSshKey({ actor: c.actor, fingerprint: q.fingerprint }, c.call), c.urls));
  });

  // Group SSH certificates (a top-level group's CAs; Owner).
  r.get("/groups/:id/ssh_certificates", scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListGroupSshCertificates({ actor: c.actor, group: String(req.params.id), page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.certificates.map(groupSshCertificate));
  });

  r.post("/groups/:id/ssh_certificates", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key: z.string(), title: z.string() });
    const c = ctx(deps, req, res);
    const cert = await identity.CreateGroupSshCertificate({ actor: c.actor, group: String(req.params.id), key: q.key, title: q.title }, c.call);
    res.status(201).json(groupSshCertificate(cert));
  });

  r.delete("/groups/:id/ssh_certificates/:certificate_id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { certificate_id: p.id("SSH Certificate") });
    const c = ctx(deps, req, res);
    await identity.DeleteGroupSshCertificate({ actor: c.actor, group: String(req.params.id), certificateId: q.certificate_id }, c.call);
    res.status(204).end();
  });

  return r;
}
