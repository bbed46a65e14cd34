import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { notFound } from "../../http/errors.ts";
import { LIMITS, p, pageShape, params, z } from "../../http/params.ts";
import { protectedBranchEntity } from "../../entities/protected-branch.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/** `allowed_to_push: [{access_level: 30}]` (GitLab's PATCH form); only access levels are modelled. */
const allowedShape = p.array(z.object({ access_level: p.int() }).passthrough()).optional();

/** The single level an `allowed_to_*` list names, if it names one. */
function allowedLevel(list: { access_level: number }[] | undefined): number | undefined {
  return list?.length ? list[list.length - 1]!.access_level : undefined;
}

/** `:name` is one URL part: "release%2F*" is the rule "release/*". One longer than a ref names no rule. */
const nameParam = (req: Request) => {
  const name = String(req.params.name);
  if (name.length > LIMITS.ref) throw notFound();
  return name;
};

/**
 * Protected branches (GitLab's lib/api/protected_branches.rb). Rules live in repo-service, which
 * applies them to every ref change. Reading needs Developer, changing Maintainer.
 */
export function protectedBranchesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo } = deps;
  const base = "/projects/:id/protected_branches";

  r.get(base, scope("read"), async (req, res) => {
    const q = params(req, { ...pageShape, search: p.searchTerm("search").optional() });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "push_code");
    const page = pageRequest(q);
    const result = await repo.ListProtectedBranches({ projectId: project.id, search: q.search ?? "", page: page.page, perPage: page.perPage }, c.call);
    c.paginate({ total: Number(result.total), ...page });
    res.json(result.protectedBranches.map(protectedBranchEntity));
  });

  r.get(`${base}/:name`, scope("read"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "push_code");
    res.json(protectedBranchEntity(await repo.FindProtectedBranch({ projectId: project.id, name: nameParam(req) }, c.call)));
  });

  r.post(base, scope("write"), async (req, res) => {
    const q = params(req, {
      name: p.ref("name").min(1),
      push_access_level: p.int().optional(),
      merge_access_level: p.int().optional(),
      unprotect_access_level: p.int().optional(),
      allow_force_push: p.bool().default(false),
      code_owner_approval_required: p.bool().default(false),
      allowed_to_push: allowedShape,
      allowed_to_merge: allowedShape,
      allowed_to_unprotect: allowedShape,
    });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    const rule = await repo.ProtectBranch(
      {
        projectId: project.id,
        name: q.name,
        pushAccessLevel: q.push_access_level ?? allowedLevel(q.allowed_to_push),
        mergeAccessLevel: q.merge_access_level ?? allowedLevel(q.allowed_to_merge),
        unprotectAccessLevel: q.unprotect_access_level ?? allowedLevel(q.allowed_to_unprotect),
        allowForcePush: q.allow_force_push,
        codeOwnerApprovalRequired: q.code_owner_approval_required,
        actor: c.actor,
      },
      c.call,
    );
    res.status(201).json(protectedBranchEntity(rule));
  });

  r.patch(`${base}/:name`, scope("write"), async (req, res) => {
    const q = params(req, {
      allow_force_push: p.bool().optional(),
      code_owner_approval_required: p.bool().optional(),
      allowed_to_push: allowedShape,
      allowed_to_merge: allowedShape,
      allowed_to_unprotect: allowedShape,
    });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    const rule = await repo.UpdateProtectedBranch(
      {
        projectId: project.id,
        name: nameParam(req),
        allowForcePush: q.allow_force_push,
        codeOwnerApprovalRequired: q.code_owner_approval_required,
        pushAccessLevel: allowedLevel(q.allowed_to_push),
        mergeAccessLevel: allowedLevel(q.allowed_to_merge),
        unprotectAccessLevel: allowedLevel(q.allowed_to_unprotect),
        actor: c.actor,
      },
      c.call,
    );
    res.json(protectedBranchEntity(rule));
  });

  r.delete(`${base}/:name`, scope("write"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    await repo.UnprotectBranch({ projectId: project.id, name: nameParam(req), actor: c.actor }, c.call);
    res.status(204).end();
  });

  return r;
}
