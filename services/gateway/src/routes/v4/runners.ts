import { AccessLevel } from "@quarry/gitlab";
import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor, requireUser, scope } from "../../http/auth.ts";
import { forbidden, missing } from "../../http/errors.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { pageRequest } from "../../http/pagination.ts";
import { runnerEntity, runnerTokenEntity } from "../../entities/runner.ts";
import { ctx } from "./context.ts";

/** `tag_list` as an array or GitLab's comma-separated string. */
const tagList = p.array(p.name("tag_list")).optional();

/** GitLab's runner list filters (lib/api/ci/runners.rb filter_params). */
const listFilters = {
  type: p.enum(["instance_type", "group_type", "project_type"]).optional(),
  paused: p.bool().optional(),
  status: p.enum(["active", "paused", "online", "offline", "never_contacted", "stale"]).optional(),
  tag_list: tagList,
};

/** Ci::Runner's maintenance_note limit, which descriptions share here. */
const RUNNER_TEXT_MAX = 1024;

/** A runner's settings, as both creation endpoints take them. */
const runnerSettings = {
  description: p.name("description", RUNNER_TEXT_MAX).optional(),
  maintenance_note: p.name("maintenance_note", RUNNER_TEXT_MAX).optional(),
  paused: p.bool().optional(),
  locked: p.bool().optional(),
  run_untagged: p.bool().optional(),
  tag_list: tagList,
  access_level: p.enum(["not_protected", "ref_protected"]).optional(),
  maximum_timeout: p.int().optional(),
};

/**
 * Runners (GitLab's lib/api/users.rb `POST /user/runners` and lib/api/ci/runner.rb): users create
 * runners and get their `glrt-` token once; the runner verifies and unregisters itself with it.
 */
export function runnersRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { ci, identity } = deps;

  /** Who may create which runner: admins instance runners, Owners group runners, Maintainers project runners. */
  const authorizeCreation = async (req: Request, q: { runner_type: string; project_id?: number; group_id?: number }) => {
    const user = requireUser(req);
    const call = { requestId: req.requestId };
    if (q.runner_type === "instance_type") {
      if (!user.isAdmin) throw forbidden();
      return { projectId: 0, groupId: 0 };
    }
    if (q.runner_type === "project_type") {
      if (q.project_id === undefined) throw missing(["project_id"]);
      const { project } = await identity.Authorize({ actor: actor(req), action: "admin_project", project: String(q.project_id) }, call);
      return { projectId: Number(project!.id), groupId: 0 };
    }
    if (q.group_id === undefined) throw missing(["group_id"]);
    const { group } = await identity.Authorize({ actor: actor(req), action: "admin_group", group: String(q.group_id) }, call);
    return { projectId: 0, groupId: Number(group!.id) };
  };

  r.post("/user/runners", scope("write"), async (req, res) => {
    const q = params(req, {
      runner_type: p.enum(["instance_type", "group_type", "project_type"]),
      project_id: p.id("Project").optional(),
      group_id: p.id("Group").optional(),
      ...runnerSettings,
    });
    const c = ctx(deps, req, res);
    const owner = await authorizeCreation(req, q);
    const created = await ci.CreateRunner(
      {
        runnerType: q.runner_type,
        ...owner,
        description: q.description ?? "",
        maintenanceNote: q.maintenance_note ?? "",
        paused: q.paused ?? false,
        locked: q.locked ?? false,
        runUntagged: q.run_untagged ?? true,
        tagList: q.tag_list ?? [],
        accessLevel: q.access_level ?? "not_protected",
        maximumTimeout: q.maximum_timeout ?? 0,
        createdByUserId: requireUser(req).userId,
      },
      c.call,
    );
    res.status(201).json(runnerTokenEntity(Number(created.runner!.id), created.token));
  });

  // Legacy registration with a registration token (lib/api/ci/runner.rb `POST /runners`).
  r.post("/runners", async (req, res) => {
    const q = params(req, {
      token: p.string(),
      active: p.bool().optional(),
      ...runnerSettings,
    });
    const c = ctx(deps, req, res);
    const created = await ci.RegisterRunner(
      {
        registrationToken: q.token,
        description: q.description ?? "",
        maintenanceNote: q.maintenance_note ?? "",
        paused: q.paused ?? (q.active === undefined ? false : !q.active),
        locked: q.locked ?? false,
        runUntagged: q.run_untagged ?? true,
        tagList: q.tag_list ?? [],
        accessLevel: q.access_level ?? "not_protected",
        maximumTimeout: q.maximum_timeout ?? 0,
      },
      c.call,
    );
    res.status(201).json(runnerTokenEntity(Number(created.runner!.id), created.token));
  });

  // The runner API authenticates with the runner token in the body, not a user token.
  r.post("/runners/verify", async (req, res) => {
    const q = params(req, { token: p.string(), system_id: p.name("system_id").optional() });
    const c = ctx(deps, req, res);
    const runner = await ci.VerifyRunner({ token: q.token, systemId: q.system_id ?? "" }, c.call);
    res.status(200).json(runnerTokenEntity(Number(runner.id), q.token));
  });

  r.delete("/runners", async (req, res) => {
    const q = params(req, { token: p.string() });
    const c = ctx(deps, req, res);
    await ci.DeleteRunnerByToken({ token: q.token, systemId: "" }, c.call);
    res.status(204).end();
  });

  // The runners a project can use (lib/api/ci/runners.rb, read_project_runners: Maintainer+): its
  // own, its groups' (the group it sits in and that group's ancestors) and the instance runners.
  r.get("/projects/:id/runners", scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, { ...pageShape, id: p.string(), ...listFilters });
    const c = ctx(deps, req, res);
    const { project } = await identity.Authorize({ actor: c.actor, action: "admin_project", project: q.id }, c.call);
    const { groupIds } = await identity.GetGroupAncestors({ actor: c.actor, projectId: project!.id }, c.call);
    const page = pageRequest(q);
    const result = await ci.ListProjectRunners(
      {
        projectId: Number(project!.id),
        groupIds,
        type: q.type ?? "",
        paused: q.paused,
        status: q.status ?? "",
        tagList: q.tag_list ?? [],
        page: page.page,
        perPage: page.perPage,
      },
      c.call,
    );
    c.paginate({ total: Number(result.total), page: page.page, perPage: page.perPage });
    const busy = new Set(result.busyRunnerIds.map(Number));
    res.json(result.runners.map((runner) => runnerEntity(runner, busy.has(Number(runner.id)))));
  });

  // The runners a group can use (lib/api/ci/runners.rb `GET /groups/:id/runners`, Ci::Runner.group_or_instance_wide):
  // the group runners of the group and its ancestors, and the instance runners. read_group_runners
  // is an Owner's permission (GitLab's GroupPolicy), administrators' too; others 403, a group they
  // cannot see 404.
  r.get("/groups/:id/runners", scope("read"), async (req, res) => {
    const q = params(req, { ...pageShape, id: p.string(), ...listFilters });
    const c = ctx(deps, req, res);
    const group = await identity.GetGroup({ actor: c.actor, idOrPath: q.id }, c.call);
    if (!req.principal?.isAdmin && group.callerAccessLevel < AccessLevel.OWNER) throw forbidden();
    const { groupIds } = await identity.GetGroupAncestors({ actor: c.actor, groupId: group.id }, c.call);
    const page = pageRequest(q);
    const result = await ci.ListGroupRunners(
      { groupIds, type: q.type ?? "", paused: q.paused, status: q.status ?? "", tagList: q.tag_list ?? [], page: page.page, perPage: page.perPage },
      c.call,
    );
    c.paginate({ total: Number(result.total), page: page.page, perPage: page.perPage });
    const busy = new Set(result.busyRunnerIds.map(Number));
    res.json(result.runners.map((runner) => runnerEntity(runner, busy.has(Number(runner.id)))));
  });

  // A new registration token for the project (Projects reset_runners_token!: Maintainer+); the old one stops working.
  r.post("/projects/:id/runners/reset_registration_token", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string() });
    const c = ctx(deps, req, res);
    const { project } = await identity.Authorize({ actor: c.actor, action: "admin_project", project: q.id }, c.call);
    const token = await ci.ResetProjectRunnersToken({ projectId: Number(project!.id) }, c.call);
    res.status(201).json({ token: token.token, token_expires_at: token.tokenExpiresAt || null });
  });

  return r;
}
