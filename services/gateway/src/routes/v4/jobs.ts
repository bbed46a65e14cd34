import { callServerStream } from "@quarry/grpc";
import type { JobTraceChunk__Output as JobTraceChunk } from "@quarry/proto/types/ci/v1/JobTraceChunk";
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { sendDownload } from "../../http/download.ts";
import { formHashArray } from "../../http/form.ts";
import { keysetBounds, keysetShape } from "../../http/keyset.ts";
import { pageRequest, setKeysetHeaders } from "../../http/pagination.ts";
import { p, pageShape, params, parseParams, requestParams, z } from "../../http/params.ts";
import { presentJobs, scopeParam } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/** How long a trace may take to stream; traces are logs, not archives. */
const TRACE_DEADLINE_MS = 10 * 60 * 1000;

/**
 * Jobs (GitLab's lib/api/ci/jobs.rb, and the pipeline job and bridge lists of
 * lib/api/ci/pipelines.rb). Reading needs read_build; the job actions need a Developer. As in
 * GitLab, every /projects/:id/jobs route needs a signed-in user, the pipeline lists do not.
 */
export function jobsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { ci } = deps;
  const base = "/projects/:id/jobs";
  const jobShape = { job_id: p.id() };

  r.get(base, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, { ...pageShape, ...keysetShape, scope: scopeParam, order_by: p.enum(["id"]).optional(), sort: p.enum(["asc", "desc"]).optional() });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const keyset = q.pagination === "keyset" ? keysetBounds(q, "desc") : null;
    const sort = keyset?.sort ?? q.sort ?? "desc";
    const page = keyset?.page ?? pageRequest(q);
    const list = await ci.ListJobs(
      {
        projectId: project.id,
        scope: q.scope ?? [],
        sort,
        page: page.page,
        perPage: page.perPage,
        keyset: keyset !== null,
        idAfter: keyset ? (sort === "asc" ? keyset.idAfter : keyset.idBefore) : 0,
      },
      c.call,
    );
    if (keyset) {
      const lastId = list.jobs.at(-1)?.id ?? null;
      setKeysetHeaders(req, res, { perPage: page.perPage, lastId, hasMore: list.hasMore, param: "cursor" }, deps.config.externalUrl);
    } else {
      // GitLab pages the project's jobs without counting them.
      c.paginateWithoutCount({ ...page, hasMore: list.hasMore });
    }
    res.json(await presentJobs(deps, req, project, list.jobs, c.urls));
  });

  r.get(`${base}/:job_id`, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, jobShape);
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const job = await ci.GetJob({ projectId: project.id, jobId: q.job_id }, c.call);
    res.json((await presentJobs(deps, req, project, [job], c.urls))[0]);
  });

  r.get(`${base}/:job_id/trace`, scope("read"), async (req, res) => {
    requireUser(req);
    const q = params(req, jobShape);
    const { project } = await authorizeProject(deps, req, "read_build");
    const stream = callServerStream<JobTraceChunk>(
      ci,
      "GetJobTrace",
      { projectId: project.id, jobId: q.job_id },
      { requestId: req.requestId, deadlineMs: TRACE_DEADLINE_MS },
    );
    await sendDownload(
      res,
      stream,
      () => {
        res.status(200);
        res.setHeader("Content-Type", "text/plain");
        res.setHeader("Content-Disposition", `infile; filename="${q.job_id}.log"`);
        return true;
      },
      deps.log,
    );
  });

  const action = (name: "cancel" | "retry" | "erase", rpc: "CancelJob" | "RetryJob" | "EraseJob") =>
    r.post(`${base}/:job_id/${name}`, scope("write"), async (req, res) => {
      const q = params(req, jobShape);
      const c = ctx(deps, req, res);
      const { project } = await authorizeProject(deps, req, "update_build");
      const job = await ci[rpc]({ projectId: project.id, jobId: q.job_id, userId: requireUser(req).userId }, c.call);
      res.status(201).json((await presentJobs(deps, req, project, [job], c.urls))[0]);
    });
  action("cancel", "CancelJob");
  action("retry", "RetryJob");
  action("erase", "EraseJob");

  r.post(`${base}/:job_id/play`, scope("write"), async (req, res) => {
    const form = formHashArray(req, "job_variables_attributes");
    const q = parseParams(
      { ...jobShape, job_variables_attributes: p.array(z.object({ key: z.string(), value: z.string() })).optional() },
      { ...requestParams(req), ...(form ? { job_variables_attributes: form } : {}), ...req.params },
    );
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "update_build");
    const job = await ci.PlayJob(
      {
        projectId: project.id,
        jobId: q.job_id,
        userId: requireUser(req).userId,
        jobVariables: (q.job_variables_attributes ?? []).map((v) => ({ key: v.key, value: v.value, variableType: "env_var" })),
      },
      c.call,
    );
    res.status(200).json((await presentJobs(deps, req, project, [job], c.urls))[0]);
  });

  const pipelineList = (path: "jobs" | "bridges") =>
    r.get(`/projects/:id/pipelines/:pipeline_id/${path}`, scope("read"), async (req, res) => {
      const q = params(req, {
        ...pageShape,
        pipeline_id: p.id(),
        scope: scopeParam,
        ...(path === "jobs" ? { include_retried: p.bool().optional() } : {}),
      });
      const c = ctx(deps, req, res);
      const { project } = await authorizeProject(deps, req, "read_build");
      const page = pageRequest(q);
      const list = await ci.ListJobs(
        {
          projectId: project.id,
          pipelineId: q.pipeline_id,
          scope: q.scope ?? [],
          includeRetried: (q as { include_retried?: boolean }).include_retried ?? false,
          type: path === "jobs" ? "build" : "bridge",
          page: page.page,
          perPage: page.perPage,
        },
        c.call,
      );
      c.paginate({ total: Number(list.total), ...page });
      res.json(await presentJobs(deps, req, project, list.jobs, c.urls));
    });
  pipelineList("jobs");
  pipelineList("bridges");

  return r;
}
