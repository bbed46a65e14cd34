import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { pipelineListItem } from "../../entities/pipeline.ts";
import { ciUrls } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/**
 * A merge request's pipelines (GitLab's lib/api/merge_requests.rb `GET …/pipelines`): the merge
 * request pipelines ci-service created for it (`source` merge_request_event, newest first), as
 * PipelineBasic. The merge request itself lives in collab-service, which has no lookup RPC yet: an
 * iid without a merge request lists nothing instead of GitLab's 404, and `POST` (create a merge
 * request pipeline on demand) is not served until that lookup exists.
 */
export function mergeRequestPipelinesRouter(deps: GatewayDeps): Router {
  const r = Router();

  r.get("/projects/:id/merge_requests/:merge_request_iid/pipelines", scope("read"), async (req, res) => {
    const q = params(req, { ...pageShape, merge_request_iid: p.id() });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const page = pageRequest(q);
    const list = await deps.ci.ListPipelines(
      {
        projectId: project.id,
        mergeRequestIid: q.merge_request_iid,
        source: "merge_request_event",
        scope: "",
        status: "",
        ref: "",
        sha: "",
        orderBy: "id",
        sort: "desc",
        userId: 0,
        updatedAfter: "",
        updatedBefore: "",
        createdAfter: "",
        createdBefore: "",
        yamlErrors: false,
        name: "",
        ...page,
      },
      c.call,
    );
    c.paginate({ total: Number(list.total), ...page });
    const u = ciUrls(c.urls, project);
    res.json(list.pipelines.map((pipeline) => pipelineListItem(pipeline, u)));
  });

  return r;
}
