// Users' GPG keys (lib/api/users.rb: /user/gpg_keys, /users/:id/gpg_keys). Keys are parsed,
// validated and stored by identity-service, which also verifies commit signatures with them.
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { gpgKeyEntity } from "../../entities/gpg-key.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { ctx } from "./context.ts";

export function gpgKeysRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  r.get("/user/gpg_keys", scope("read_user"), async (req, res) => {
    requireUser(req);
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const out = await identity.ListGpgKeys({ actor: c.actor, userId: 0, page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.keys.map(gpgKeyEntity));
  });

  r.get("/user/gpg_keys/:key_id", scope("read_user"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key_id: p.id("GPG Key") });
    const c = ctx(deps, req, res);
    res.json(gpgKeyEntity(await identity.GetGpgKey({ actor: c.actor, userId: 0, keyId: q.key_id }, c.call)));
  });

  r.post("/user/gpg_keys", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key: z.string() });
    const c = ctx(deps, req, res);
    res.status(201).json(gpgKeyEntity(await identity.CreateGpgKey({ actor: c.actor, userId: 0, key: q.key }, c.call)));
  });

  r.delete("/user/gpg_keys/:key_id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key_id: p.id("GPG Key") });
    const c = ctx(deps, req, res);
    await identity.DeleteGpgKey({ actor: c.actor, userId: 0, keyId: q.key_id }, c.call);
    res.status(204).end();
  });

  // GitLab answers `status :accepted`, whose value (202) Grape renders as the body.
  r.post("/user/gpg_keys/:key_id/revoke", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { key_id: p.id("GPG Key") });
    const c = ctx(deps, req, res);
    await identity.DeleteGpgKey({ actor: c.actor, userId: 0, keyId: q.key_id, revoke: true }, c.call);
    res.status(202).json(202);
  });

  // Anyone may list a user's GPG keys (GitLab's endpoint does not authenticate).
  r.get("/users/:id/gpg_keys", scope("read_user"), async (req, res) => {
    const q = params(req, { id: p.id("User"), ...pageShape });
    const c = ctx(deps, req, res);
    const out = await identity.ListGpgKeys({ actor: c.actor, userId: q.id, page: pageRequest(q) }, c.call);
    c.paginate(out.pageInfo);
    res.json(out.keys.map(gpgKeyEntity));
  });

  r.get("/users/:id/gpg_keys/:key_id", scope("read_user"), async (req, res) => {
    const q = params(req, { id: p.id("User"), key_id: p.id("GPG Key") });
    const c = ctx(deps, req, res);
    res.json(gpgKeyEntity(await identity.GetGpgKey({ actor: c.actor, userId: q.id, keyId: q.key_id }, c.call)));
  });

  r.post("/users/:id/gpg_keys", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User"), key: z.string() });
    const c = ctx(deps, req, res);
    res.status(201).json(gpgKeyEntity(await identity.CreateGpgKey({ actor: c.actor, userId: q.id, key: q.key }, c.call)));
  });

  r.delete("/users/:id/gpg_keys/:key_id", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User"), key_id: p.id("GPG Key") });
    const c = ctx(deps, req, res);
    await identity.DeleteGpgKey({ actor: c.actor, userId: q.id, keyId: q.key_id }, c.call);
    res.status(204).end();
  });

  r.post("/users/:id/gpg_keys/:key_id/revoke", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User"), key_id: p.id("GPG Key") });
    const c = ctx(deps, req, res);
    await identity.DeleteGpgKey({ actor: c.actor, userId: q.id, keyId: q.key_id, revoke: true }, c.call);
    res.status(202).json(202);
  });

  return r;
}
