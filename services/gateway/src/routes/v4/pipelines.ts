import { PIPELINE_STATUSES } from "@quarry/gitlab";
import { isNotFound } from "@quarry/grpc";
import type { Pipeline__Output as Pipeline } from "@quarry/proto/types/ci/v1/Pipeline";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor, requireUser, scope } from "../../http/auth.ts";
import { forbidden } from "../../http/errors.ts";
import { formHashArray } from "../../http/form.ts";
import { pageRequest, setPaginationHeaders } from "../../http/pagination.ts";
import { p, pageShape, declareParams, params, parseParams, requestParams, z } from "../../http/params.ts";
import { pipelineEntity, pipelineListItem } from "../../entities/pipeline.ts";
import { ciUrls, usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/** Ci::Pipeline.sources. */
const PIPELINE_SOURCES = [
  "unknown",
  "push",
  "web",
  "trigger",
  "schedule",
  "api",
  "external",
  "pipeline",
  "chat",
  "webide",
  "merge_request_event",
  "external_pull_request_event",
  "parent_pipeline",
  "ondemand_dast_scan",
  "ondemand_dast_validation",
  "security_orchestration_policy",
  "container_registry_push",
  "duo_workflow",
  "pipeline_execution_policy_schedule",
] as const;

/**
 * Pipelines (GitLab's lib/api/ci/pipelines.rb). Reading needs read_build (anonymous callers may
 * read public projects' pipelines), creating, canceling and retrying a Developer, deleting an Owner.
 */
export function pipelinesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { ci, identity, repo } = deps;
  const base = "/projects/:id/pipelines";
  const pipelineShape = { pipeline_id: p.id() };

  /** The single-pipeline view, with its user. */
  const present = async (req: Request, project: Project, pipeline: Pipeline, urls: ReturnType<typeof ctx>["urls"]) => {
    const users = await usersById(deps, req, [pipeline.userId]);
    return pipelineEntity(pipeline, users.get(pipeline.userId) ?? null, ciUrls(urls, project));
  };

  /** GitLab's `username` filter: the user's id, or null when nobody has that name (an empty list). */
  const userIdOf = async (req: Request, username: string): Promise<number | null> => {
    const found = await identity.ListUsers({ actor: actor(req), username, page: { page: 1, perPage: 1 } }, { requestId: req.requestId });
    return found.users[0]?.id ?? null;
  };

  r.get(base, scope("read"), async (req, res) => {
    const q = params(req, {
      ...pageShape,
      scope: p.enum(["running", "pending", "finished", "branches", "tags"]).optional(),
      status: p.enum(PIPELINE_STATUSES).optional(),
      ref: p.ref("ref").optional(),
      sha: p.ref("sha").optional(),
      yaml_errors: p.bool().optional(),
      username: p.searchTerm("username").optional(),
      updated_before: p.datetime().optional(),
      updated_after: p.datetime().optional(),
      created_before: p.datetime().optional(),
      created_after: p.datetime().optional(),
      order_by: p.enum(["id", "status", "ref", "updated_at", "user_id"]).optional(),
      sort: p.enum(["asc", "desc"]).optional(),
      source: p.enum(PIPELINE_SOURCES).optional(),
      name: p.searchTerm("name").optional(),
    });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const page = pageRequest(q);
    const orderBy = q.order_by ?? "id";
    const sort = q.sort ?? "desc";
    const userId = q.username === undefined ? 0 : await userIdOf(req, q.username);
    const list =
      userId === null
        ? { pipelines: [], total: 0 }
        : await ci.ListPipelines(
            {
              projectId: project.id,
              scope: q.scope ?? "",
              status: q.status ?? "",
              ref: q.ref ?? "",
              sha: q.sha ?? "",
              source: q.source ?? "",
              orderBy,
              sort,
              page: page.page,
              perPage: page.perPage,
              userId,
              updatedAfter: q.updated_after ?? "",
              updatedBefore: q.updated_before ?? "",
              createdAfter: q.created_after ?? "",
              createdBefore: q.created_before ?? "",
              yamlErrors: q.yaml_errors ?? false,
              name: q.name ?? "",
            },
            c.call,
          );
    setPaginationHeaders(req, res, { total: Number(list.total), ...page }, deps.config.externalUrl, { order_by: orderBy, sort });
    const u = ciUrls(c.urls, project);
    res.json(list.pipelines.map((pipeline) => pipelineListItem(pipeline, u)));
  });

  // The newest pipeline of the ref's head commit; none is GitLab's 403 (it authorizes a nil pipeline).
  r.get(`${base}/latest`, scope("read"), async (req, res) => {
    const q = params(req, { ref: p.ref("ref").optional() });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const ref = q.ref || project.defaultBranch;
    const head = ref
      ? await repo.FindCommit({ diskPath: project.diskPath, revision: ref, stats: false }, c.call).catch((err: unknown) => {
          if (isNotFound(err)) return null;
          throw err;
        })
      : null;
    const sha = head?.commit?.id;
    const latest = sha ? (await ci.LatestPipelines({ projectId: project.id, shas: [sha], ref }, c.call)).pipelines[0] : undefined;
    if (!latest) throw forbidden();
    res.json(await present(req, project, latest, c.urls));
  });

  r.get(`${base}/:pipeline_id`, scope("read"), async (req, res) => {
    const q = params(req, pipelineShape);
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_build");
    const pipeline = await ci.GetPipeline({ projectId: project.id, pipelineId: q.pipeline_id }, c.call);
    res.json(await present(req, project, pipeline, c.urls));
  });

  // Parsed with parseParams (variables may come as a Rack form), so declared for the OpenAPI document.
  const createShape = {
    ref: p.ref("ref"),
    variables: p
      .array(z.object({ key: z.string().optional(), value: z.string().optional(), variable_type: p.enum(["env_var", "file"]).optional() }))
      .optional(),
  };
  r.post("/projects/:id/pipeline", scope("write"), declareParams(createShape), async (req, res) => {
    const form = formHashArray(req, "variables");
    const q = parseParams(createShape, { ...requestParams(req), ...(form ? { variables: form } : {}) });
    const c = ctx(deps, req, res);
    const auth = await authorizeProject(deps, req, "create_pipeline");
    const { project } = auth;
    // CI_COMMIT_REF_PROTECTED: whether the ref is a protected branch (a branch wins over a tag).
    const branch = await repo
      .FindBranch(
        { diskPath: project.diskPath, name: q.ref, defaultBranch: project.defaultBranch, projectId: project.id, accessLevel: auth.accessLevel },
        c.call,
      )
      .catch((err: unknown) => {
        if (isNotFound(err)) return null;
        throw err;
      });
    const pipeline = await ci.CreatePipeline(
      {
        project: {
          id: project.id,
          pathWithNamespace: project.pathWithNamespace,
          defaultBranch: project.defaultBranch,
          diskPath: project.diskPath,
          ciConfigPath: project.ciConfigPath,
          visibility: project.visibility,
        },
        ref: q.ref,
        variables: (q.variables ?? []).map((v) => ({ key: v.key ?? "", value: v.value ?? "", variableType: v.variable_type ?? "env_var" })),
        userId: requireUser(req).userId,
        source: "api",
        refProtected: branch?.protected ?? false,
      },
      c.call,
    );
    res.status(201).json(await present(req, project, pipeline, c.urls));
  });

  const action = (name: "cancel" | "retry", rpc: "CancelPipeline" | "RetryPipeline", code: number) =>
    r.post(`${base}/:pipeline_id/${name}`, scope("write"), async (req, res) => {
      const q = params(req, pipelineShape);
      const c = ctx(deps, req, res);
      const { project } = await authorizeProject(deps, req, "update_build");
      const pipeline = await ci[rpc]({ projectId: project.id, pipelineId: q.pipeline_id, userId: requireUser(req).userId }, c.call);
      res.status(code).json(await present(req, project, pipeline, c.urls));
    });
  action("cancel", "CancelPipeline", 200);
  action("retry", "RetryPipeline", 201);

  r.delete(`${base}/:pipeline_id`, scope("write"), async (req, res) => {
    const q = params(req, pipelineShape);
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "destroy_pipeline");
    await ci.DeletePipeline({ projectId: project.id, pipelineId: q.pipeline_id, userId: requireUser(req).userId }, c.call);
    res.status(204).end();
  });

  return r;
}
