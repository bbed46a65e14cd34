import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, refParam } from "../../http/params.ts";
import { branchEntity } from "../../entities/branch.ts";
import { webUrl } from "../../entities/urls.ts";
import { ctx } from "./context.ts";
import { authorizeProject, pushContext, ruleLevel } from "./project-access.ts";

/** Repository branches: list, read, probe, create, delete, delete merged. */
export function branchesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo } = deps;
  const base = "/projects/:id/repository";

  r.get(`${base}/branches`, scope("read_repository"), async (req, res) => {
    const q = params(req, { ...pageShape, search: p.searchTerm("search").optional(), regex: p.searchTerm("regex").optional() });
    if (q.search && q.regex) throw new ApiError(400, { message: "Specify either search or regex, not both" });
    const c = ctx(deps, req, res);
    const { project, accessLevel } = await authorizeProject(deps, req, "read_repository");
    const page = pageRequest(q);
    const result = await repo.ListBranches(
      {
        diskPath: project.diskPath,
        search: q.search ?? "",
        regex: q.regex ?? "",
        page: page.page,
        perPage: page.perPage,
        defaultBranch: project.defaultBranch,
        projectId: project.id,
        accessLevel: ruleLevel(req, accessLevel),
      },
      c.call,
    );
    c.paginate({ total: Number(result.total), ...page });
    const web = webUrl(c.urls, project.pathWithNamespace);
    res.json(result.branches.map((b) => branchEntity(b, web)));
  });

  const findBranch = async (req: Request, res: Parameters<Parameters<typeof r.get>[1]>[1]) => {
    const c = ctx(deps, req, res);
    const { project, accessLevel } = await authorizeProject(deps, req, "read_repository");
    const branch = await repo.FindBranch(
      {
        diskPath: project.diskPath,
        name: refParam(req, "branch", "Branch"),
        defaultBranch: project.defaultBranch,
        projectId: project.id,
        accessLevel: ruleLevel(req, accessLevel),
      },
      c.call,
    );
    return { branch, project, c };
  };

  // HEAD before GET: express would otherwise answer HEAD with the GET route.
  r.head(`${base}/branches/*branch`, scope("read_repository"), async (req, res) => {
    await findBranch(req, res);
    res.status(204).end();
  });

  r.get(`${base}/branches/*branch`, scope("read_repository"), async (req, res) => {
    const { branch, project, c } = await findBranch(req, res);
    res.json(branchEntity(branch, webUrl(c.urls, project.pathWithNamespace)));
  });

  r.post(`${base}/branches`, scope("write"), async (req, res) => {
    const q = params(req, { branch: p.ref("branch").min(1), ref: p.ref("ref").min(1) });
    const c = ctx(deps, req, res);
    const auth = await authorizeProject(deps, req, "push_code");
    const { project } = auth;
    const branch = await repo.CreateBranch({ diskPath: project.diskPath, name: q.branch, ref: q.ref, context: pushContext(auth, req, c.urls) }, c.call);
    res.status(201).json(branchEntity(branch, webUrl(c.urls, project.pathWithNamespace)));
  });

  r.delete(`${base}/branches/*branch`, scope("write"), async (req, res) => {
    const c = ctx(deps, req, res);
    const auth = await authorizeProject(deps, req, "push_code");
    await repo.DeleteBranch(
      { diskPath: auth.project.diskPath, name: refParam(req, "branch", "Branch"), context: pushContext(auth, req, c.urls), protectedPatterns: [] },
      c.call,
    );
    res.status(204).end();
  });

  r.delete(`${base}/merged_branches`, scope("write"), async (req, res) => {
    const c = ctx(deps, req, res);
    const auth = await authorizeProject(deps, req, "push_code");
    await repo.DeleteMergedBranches({ diskPath: auth.project.diskPath, context: pushContext(auth, req, c.urls), protectedPatterns: [] }, c.call);
    res.status(202).json({ message: "202 Accepted" });
  });

  return r;
}
