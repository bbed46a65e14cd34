import { status } from "@grpc/grpc-js";
import { RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { ApiError, unauthorized } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { impossibleId, p, pageShape, declareParams, params, requestParams } from "../../http/params.ts";
import { remoteMirrorEntity } from "../../entities/remote-mirror.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/**
 * Remote (push) mirrors (GitLab's lib/api/remote_mirrors.rb): settings and sync state live in
 * mirror-service, the pushes run in repo-service. Every route needs `admin_remote_mirror`
 * (Maintainer): a project the caller cannot see is 404, a lower role gets GitLab's 401.
 */
/** A mirror URL: GitLab sets no bound of its own; 2048 characters is the practical bound of URLs (browsers, proxies). */
const MIRROR_URL_MAX = 2048;

export function remoteMirrorsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { mirror } = deps;
  const base = "/projects/:id/remote_mirrors";

  /** GitLab's `before { unauthorized! unless can?(current_user, :admin_remote_mirror, user_project) }`. */
  const authorize = async (req: Request) => {
    try {
      return (await authorizeProject(deps, req, "admin_project")).project;
    } catch (err) {
      if ((err as { code?: unknown }).code === status.PERMISSION_DENIED) throw unauthorized();
      throw err;
    }
  };
  /** `mirror_id` is a string to GitLab; anything but an id finds no record. */
  const mirrorId = (req: Request) => {
    const raw = String(req.params.mirror_id);
    if (!/^\d+$/.test(raw) || impossibleId(raw)) throw new ApiError(404, { message: RECORD_NOT_FOUND_MESSAGE });
    return Number(raw);
  };
  /** Grape's `mutually_exclusive :only_protected_branches, :mirror_branch_regex`, and Rails' blank check. */
  const branchSettings = (req: Request) => {
    const raw = requestParams(req);
    if ("only_protected_branches" in raw && (raw.only_protected_branches === null || raw.only_protected_branches === "")) {
      throw new ApiError(400, { message: { only_protected_branches: ["can't be blank"] } });
    }
    if (raw.only_protected_branches != null && raw.mirror_branch_regex != null) {
      throw new ApiError(400, { error: "only_protected_branches, mirror_branch_regex are mutually exclusive" });
    }
  };

  // Shapes declared up front (declareParams): authorization comes before the parameters.
  r.get(base, scope("read"), declareParams(pageShape), async (req, res) => {
    const project = await authorize(req);
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const page = pageRequest(q);
    const list = await mirror.ListMirrors({ projectId: project.id, page: page.page, perPage: page.perPage }, c.call);
    c.paginate({ total: Number(list.total), ...page });
    res.json(list.mirrors.map(remoteMirrorEntity));
  });

  r.get(`${base}/:mirror_id`, scope("read"), async (req, res) => {
    const project = await authorize(req);
    const c = ctx(deps, req, res);
    res.json(remoteMirrorEntity(await mirror.GetMirror({ projectId: project.id, mirrorId: mirrorId(req) }, c.call)));
  });

  r.get(`${base}/:mirror_id/public_key`, scope("read"), async (req, res) => {
    const project = await authorize(req);
    const c = ctx(deps, req, res);
    const key = await mirror.GetMirrorPublicKey({ projectId: project.id, mirrorId: mirrorId(req) }, c.call);
    res.json({ public_key: key.publicKey });
  });

  const createShape = {
    url: p.name("url", MIRROR_URL_MAX),
    enabled: p.bool().optional(),
    auth_method: p.enum(["ssh_public_key", "password"]).optional(),
    keep_divergent_refs: p.bool().optional(),
    only_protected_branches: p.bool().optional(),
    mirror_branch_regex: p.searchTerm("mirror_branch_regex").optional(),
  };
  r.post(base, scope("write"), declareParams(createShape), async (req, res) => {
    const project = await authorize(req);
    const q = params(req, createShape);
    branchSettings(req);
    const c = ctx(deps, req, res);
    const created = await mirror.CreateMirror(
      {
        projectId: project.id,
        diskPath: project.diskPath,
        url: q.url,
        enabled: q.enabled,
        authMethod: q.auth_method,
        keepDivergentRefs: q.keep_divergent_refs,
        onlyProtectedBranches: q.only_protected_branches,
        mirrorBranchRegex: q.mirror_branch_regex,
        actor: c.actor,
      },
      c.call,
    );
    res.status(201).json(remoteMirrorEntity(created));
  });

  const updateShape = {
    enabled: p.bool().optional(),
    auth_method: p.name("auth_method").optional(),
    keep_divergent_refs: p.bool().optional(),
    only_protected_branches: p.bool().optional(),
    mirror_branch_regex: p.searchTerm("mirror_branch_regex").optional(),
  };
  r.put(`${base}/:mirror_id`, scope("write"), declareParams(updateShape), async (req, res) => {
    const project = await authorize(req);
    const id = mirrorId(req);
    const q = params(req, updateShape);
    branchSettings(req);
    const c = ctx(deps, req, res);
    const updated = await mirror.UpdateMirror(
      {
        projectId: project.id,
        mirrorId: id,
        enabled: q.enabled,
        authMethod: q.auth_method,
        keepDivergentRefs: q.keep_divergent_refs,
        onlyProtectedBranches: q.only_protected_branches,
        mirrorBranchRegex: q.mirror_branch_regex,
        actor: c.actor,
      },
      c.call,
    );
    res.json(remoteMirrorEntity(updated));
  });

  r.post(`${base}/:mirror_id/sync`, scope("write"), async (req, res) => {
    const project = await authorize(req);
    const c = ctx(deps, req, res);
    await mirror.SyncMirror({ projectId: project.id, mirrorId: mirrorId(req) }, c.call);
    res.status(204).end();
  });

  r.delete(`${base}/:mirror_id`, scope("write"), async (req, res) => {
    const project = await authorize(req);
    const c = ctx(deps, req, res);
    await mirror.DeleteMirror({ projectId: project.id, mirrorId: mirrorId(req), actor: c.actor }, c.call);
    res.status(204).end();
  });

  return r;
}
