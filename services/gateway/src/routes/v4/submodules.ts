import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { commitDetailEntity } from "../../entities/commit.ts";
import { webUrl } from "../../entities/urls.ts";
import { scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { filePathParam, p, params } from "../../http/params.ts";
import { lastPipeline } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { authorizeProject, pushContext } from "./project-access.ts";

/** The submodule's path: one outside the repository (absolute, or through `..`) is no submodule. */
function submodulePath(req: Request): string {
  const path = filePathParam(req, "submodule", "Submodule");
  if (path.startsWith("/") || path.split("/").includes("..")) throw new ApiError(400, { message: "Invalid submodule path" });
  return path;
}

/** Submodule references: point a submodule at another commit (200 with the commit's details). */
export function submodulesRouter(deps: GatewayDeps): Router {
  const r = Router();

  r.put("/projects/:id/repository/submodules/*submodule", scope("write"), async (req, res) => {
    const c = ctx(deps, req, res);
    const q = params(req, { commit_sha: p.ref("commit_sha"), branch: p.ref("branch"), commit_message: p.string().optional() });
    const auth = await authorizeProject(deps, req, "push_code");
    const commit = await deps.repo.UpdateSubmodule(
      {
        diskPath: auth.project.diskPath,
        context: pushContext(auth, req, c.urls),
        submodule: submodulePath(req),
        commitSha: q.commit_sha,
        branch: q.branch,
        commitMessage: q.commit_message ?? "",
      },
      c.call,
    );
    const pipeline = await lastPipeline(deps, auth.project, commit.id, c);
    res.status(200).json(commitDetailEntity(commit, null, webUrl(c.urls, auth.project.pathWithNamespace), auth.project.id, pipeline));
  });

  return r;
}
