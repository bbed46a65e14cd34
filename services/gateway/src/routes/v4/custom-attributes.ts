import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { p, params } from "../../http/params.ts";
import { ctx } from "./context.ts";

type Kind = "user" | "group" | "project";
const PLURAL: Record<Kind, string> = { user: "users", group: "groups", project: "projects" };

/** GitLab's Entities::CustomAttribute. */
export const customAttribute = (a: { key: string; value: string }) => ({ key: a.key, value: a.value });

/**
 * `with_custom_attributes=true` (administrators only, as GitLab's with_custom_attributes helper):
 * each resource's attributes by id, or null when they are not to be shown.
 */
export async function customAttributesFor(
  deps: GatewayDeps,
  req: Request,
  kind: Kind,
  ids: (number | string)[],
  wanted: boolean | undefined,
): Promise<Map<number, { key: string; value: string }[]> | null> {
  if (!wanted || !req.principal?.isAdmin) return null;
  const c = { actor: { userId: req.principal.userId, isAdmin: true }, call: { requestId: req.requestId } };
  const res = await deps.identity.ListCustomAttributes({ actor: c.actor, kind, ids: ids.map(Number) }, c.call);
  const map = new Map<number, { key: string; value: string }[]>(ids.map((id) => [Number(id), []]));
  for (const a of res.attributes) map.get(Number(a.sourceId))?.push(customAttribute(a));
  return map;
}

/** The `custom_attributes` field to spread into an entity, or nothing. */
export function withCustomAttributes(map: Map<number, { key: string; value: string }[]> | null, id: number | string) {
  return map ? { custom_attributes: map.get(Number(id)) ?? [] } : {};
}

/** `custom_attributes[key]=value` filters (GitLab's CustomAttributesFilter; a Hash parameter). */
export function customAttributesFilter(req: Request): { key: string; value: string }[] {
  const raw = req.query.custom_attributes ?? (req.body as Record<string, unknown> | undefined)?.custom_attributes;
  if (raw === undefined) return [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new ApiError(400, { error: "custom_attributes is invalid" });
  return Object.entries(raw as Record<string, unknown>).map(([key, value]) => {
    if (typeof value !== "string") throw new ApiError(400, { error: "custom_attributes is invalid" });
    return { key, value };
  });
}

/**
 * lib/api/custom_attributes_endpoints.rb for users, groups and projects: list, get, PUT (create
 * or update, `value` required), DELETE (204). The resource is looked up first (404), then the
 * caller must be an administrator (403).
 */
export function customAttributesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;
  for (const kind of ["user", "group", "project"] as const) {
    const base = `/${PLURAL[kind]}/:id/custom_attributes`;
    // Reads need no sign-in to reach the administrator check (403), as GitLab's authorize!.
    r.get(base, scope("read"), async (req, res) => {
      const q = params(req, { id: p.string() });
      const c = ctx(deps, req, res);
      const result = await identity.ListCustomAttributes({ actor: c.actor, kind, id: q.id }, c.call);
      res.json(result.attributes.map(customAttribute));
    });
    r.get(`${base}/:key`, scope("read"), async (req, res) => {
      const q = params(req, { id: p.string(), key: p.string() });
      const c = ctx(deps, req, res);
      res.json(customAttribute(await identity.GetCustomAttribute({ actor: c.actor, kind, id: q.id, key: q.key }, c.call)));
    });
    r.put(`${base}/:key`, scope("write"), async (req, res) => {
      requireUser(req);
      const q = params(req, { id: p.string(), key: p.string(), value: p.string() });
      const c = ctx(deps, req, res);
      res.json(customAttribute(await identity.SetCustomAttribute({ actor: c.actor, kind, id: q.id, key: q.key, value: q.value }, c.call)));
    });
    r.delete(`${base}/:key`, scope("write"), async (req, res) => {
      requireUser(req);
      const q = params(req, { id: p.string(), key: p.string() });
      const c = ctx(deps, req, res);
      await identity.DeleteCustomAttribute({ actor: c.actor, kind, id: q.id, key: q.key }, c.call);
      res.status(204).end();
    });
  }
  return r;
}
