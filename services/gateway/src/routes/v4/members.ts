import { MAX_INT32 } from "@quarry/gitlab";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { member } from "../../entities/member.ts";
import { ctx } from "./context.ts";

const accessLevel = p.int();

/** Members of projects and groups: the same routes under /projects/:id and /groups/:id. */
export function membersRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  for (const kind of ["projects", "groups"] as const) {
    const sourceKind = kind === "projects" ? "project" : "group";
    const source = (req: Request) => ({ kind: sourceKind, idOrPath: String(req.params.id) });
    const render = (req: Request, res: Response) => {
      const c = ctx(deps, req, res);
      return { c, one: (m: Parameters<typeof member>[0]) => member(m, c.urls, { showEmail: Boolean(req.principal?.isAdmin) }) };
    };

    // `/members/all` first, so that "all" is not taken for a :user_id.
    for (const all of [true, false]) {
      const base = `/${kind}/:id/members${all ? "/all" : ""}`;
      r.get(base, scope("read"), async (req, res) => {
        const q = params(req, { ...pageShape, query: p.searchTerm("query").optional(), user_ids: p.array(p.int()).optional() });
        const { c, one } = render(req, res);
        const result = await identity.ListMembers(
          { actor: c.actor, source: source(req), page: pageRequest(q), query: q.query ?? "", includeInherited: all, userIds: q.user_ids ?? [] },
          c.call,
        );
        c.paginate(result.pageInfo);
        res.json(result.members.map(one));
      });
      r.get(`${base}/:user_id`, scope("read"), async (req, res) => {
        const q = params(req, { user_id: p.id("Member") });
        const { c, one } = render(req, res);
        res.json(one(await identity.GetMember({ actor: c.actor, source: source(req), userId: q.user_id, includeInherited: all }, c.call)));
      });
    }

    r.post(`/${kind}/:id/members`, scope("write"), async (req, res) => {
      requireUser(req);
      // user_id may be a number or a comma-separated list of ids.
      const q = params(req, {
        user_id: z
          .union([z.number(), z.string().min(1)])
          .transform(String)
          .optional(),
        username: p.name("username").min(1).optional(),
        access_level: accessLevel,
        expires_at: p.date().optional(),
      });
      if (!q.user_id && !q.username) {
        res.status(400).json({ error: "user_id, username are missing, exactly one parameter must be provided" });
        return;
      }
      const { c, one } = render(req, res);
      // GitLab accepts several comma-separated ids; one member is the common case and what we return.
      const userId = q.user_id ? Number(q.user_id.split(",")[0]) : 0;
      if (q.user_id && !(Number.isInteger(userId) && userId >= 0 && userId <= MAX_INT32)) {
        res.status(400).json({ error: "user_id does not have a valid value" });
        return;
      }
      const created = await identity.AddMember(
        { actor: c.actor, source: source(req), userId, username: q.username ?? "", accessLevel: q.access_level, expiresAt: q.expires_at ?? "" },
        c.call,
      );
      res.status(201).json(one(created));
    });

    r.put(`/${kind}/:id/members/:user_id`, scope("write"), async (req, res) => {
      requireUser(req);
      const q = params(req, { user_id: p.id("Member"), access_level: accessLevel, expires_at: p.string().optional() });
      const { c, one } = render(req, res);
      const updated = await identity.UpdateMember(
        { actor: c.actor, source: source(req), userId: q.user_id, accessLevel: q.access_level, expiresAt: q.expires_at },
        c.call,
      );
      res.json(one(updated));
    });

    r.delete(`/${kind}/:id/members/:user_id`, scope("write"), async (req, res) => {
      requireUser(req);
      const q = params(req, { user_id: p.id("Member") });
      const { c } = render(req, res);
      await identity.RemoveMember({ actor: c.actor, source: source(req), userId: q.user_id }, c.call);
      res.status(204).end();
    });
  }
  return r;
}
