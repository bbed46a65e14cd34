import { VISIBILITIES } from "@quarry/gitlab";
import type { MergeSettingsUpdate } from "@quarry/proto/types/identity/v1/MergeSettingsUpdate";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { LIMITS, p, pageShape, params, z } from "../../http/params.ts";
import { projectFull, projectSimple } from "../../entities/project.ts";
import { keysetBounds, keysetShape, writeKeysetHeaders } from "../../http/keyset.ts";
import { repositoryStorageNames } from "./repository-storage-moves.ts";
import { cachedProject } from "./project-access.ts";
import { ctx } from "./context.ts";
import { customAttributesFilter, customAttributesFor, withCustomAttributes } from "./custom-attributes.ts";
import { acceptAvatar, avatarParam } from "../avatars.ts";
import { runnersTokenFor } from "./project-runners-token.ts";

const visibility = p.enum(VISIBILITIES);

/**
 * A project's merge request settings as GitLab's projects API takes them (CE's params and EE's
 * approvals_before_merge); the other approval settings go through POST /projects/:id/approvals.
 * Templates are bounded by identity-service (GitLab's model rule).
 */
const mergeSettingsShape = {
  merge_method: p.enum(["merge", "rebase_merge", "ff"]).optional(),
  only_allow_merge_if_pipeline_succeeds: p.bool().optional(),
  allow_merge_on_skipped_pipeline: p.bool().optional(),
  only_allow_merge_if_all_discussions_are_resolved: p.bool().optional(),
  remove_source_branch_after_merge: p.bool().optional(),
  squash_option: p.enum(["never", "always", "default_on", "default_off"]).optional(),
  merge_commit_template: p.string().optional(),
  squash_commit_template: p.string().optional(),
  autoclose_referenced_issues: p.bool().optional(),
  approvals_before_merge: p.int().optional(),
};

type MergeSettingsParams = { [K in keyof typeof mergeSettingsShape]?: z.output<(typeof mergeSettingsShape)[K]> };

/** The settings given, for CreateProject/UpdateProject (absent ones stay unset). */
function mergeSettingsUpdate(q: MergeSettingsParams): MergeSettingsUpdate {
  return {
    mergeMethod: q.merge_method,
    onlyAllowMergeIfPipelineSucceeds: q.only_allow_merge_if_pipeline_succeeds,
    allowMergeOnSkippedPipeline: q.allow_merge_on_skipped_pipeline,
    onlyAllowMergeIfAllDiscussionsAreResolved: q.only_allow_merge_if_all_discussions_are_resolved,
    removeSourceBranchAfterMerge: q.remove_source_branch_after_merge,
    squashOption: q.squash_option,
    mergeCommitTemplate: q.merge_commit_template,
    squashCommitTemplate: q.squash_commit_template,
    autocloseReferencedIssues: q.autoclose_referenced_issues,
    approvalsBeforeMerge: q.approvals_before_merge,
  };
}
const createShape = {
  name: p.name("name").optional(),
  path: p.name("path").optional(),
  namespace_id: p.id("Namespace").optional(),
  visibility: visibility.optional(),
  description: p.name("description", LIMITS.projectDescription).optional(),
  default_branch: p.ref("default_branch").optional(),
  initialize_with_readme: p.bool().optional(),
  topics: p.array(p.name("topics")).optional(),
  tag_list: p.array(p.name("tag_list")).optional(),
  request_access_enabled: p.bool().optional(),
  ci_config_path: p.name("ci_config_path").optional(),
  ...mergeSettingsShape,
};

/** The filters every project listing accepts (/projects, /groups/:id/projects, /users/:id/projects). */
export const projectListShape = {
  ...pageShape,
  ...keysetShape,
  owned: p.bool().optional(),
  search: p.searchTerm("search").optional(),
  visibility: visibility.optional(),
  simple: p.bool().optional(),
  archived: p.bool().optional(),
  order_by: p.enum(["id", "name", "path", "created_at", "updated_at", "last_activity_at", "similarity", "star_count"]).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
  min_access_level: p.int().optional(),
  topic: p.searchTerm("topic").optional(),
  statistics: p.bool().optional(),
  starred: p.bool().optional(),
  updated_after: p.datetime().optional(),
  updated_before: p.datetime().optional(),
  // Issues and merge requests are on in every project (no per-project feature toggles exist), so
  // these filters are accepted and change nothing.
  with_issues_enabled: p.bool().optional(),
  with_merge_requests_enabled: p.bool().optional(),
};

type ProjectListQuery = { [K in keyof typeof projectListShape]?: z.output<(typeof projectListShape)[K]> };

/** Maps parsed listing filters (and keyset bounds) onto ListProjects; callers add actor and scope. */
export function listProjectsRequest(q: ProjectListQuery, keyset: ReturnType<typeof keysetBounds> | null) {
  return {
    page: keyset ? keyset.page : pageRequest(q),
    owned: q.owned ?? false,
    search: q.search ?? "",
    visibility: q.visibility ?? "",
    archived: q.archived,
    // An order we cannot honour (similarity) falls back to the default.
    orderBy: keyset ? "id" : q.order_by === "similarity" ? "" : (q.order_by ?? ""),
    sort: keyset ? keyset.sort : (q.sort ?? ""),
    minAccessLevel: q.min_access_level ?? 0,
    idAfter: keyset ? keyset.idAfter : (q.id_after ?? 0),
    idBefore: keyset ? keyset.idBefore : (q.id_before ?? 0),
    topic: q.topic ?? "",
    starred: q.starred ?? false,
    updatedAfter: q.updated_after ?? "",
    updatedBefore: q.updated_before ?? "",
  };
}

/** Projects: create (for self or, as administrator, for a user), list, read, update, delete. */
export function projectsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  const create = async (req: Request, res: Response, ownerUserId: number) => {
    const q = params(req, createShape);
    if (!q.name && !q.path) {
      res.status(400).json({ error: "name, path are missing, at least one parameter must be provided" });
      return;
    }
    const avatar = avatarParam(req);
    const c = ctx(deps, req, res);
    const project = await identity.CreateProject(
      {
        actor: c.actor,
        name: q.name ?? "",
        path: q.path ?? "",
        namespaceId: q.namespace_id ?? 0,
        visibility: q.visibility ?? "",
        description: q.description ?? "",
        defaultBranch: q.default_branch ?? "",
        initializeWithReadme: q.initialize_with_readme ?? false,
        ownerUserId,
        topics: q.topics ?? q.tag_list ?? [],
        requestAccessEnabled: q.request_access_enabled,
        ciConfigPath: q.ci_config_path ?? "",
        avatar,
        mergeSettings: mergeSettingsUpdate(q),
      },
      c.call,
    );
    const runnersToken = await runnersTokenFor(deps, req, project);
    res.status(201).json(projectFull(project, c.urls, { emptyRepo: !q.initialize_with_readme, runnersToken }));
  };

  r.post("/projects", acceptAvatar(), scope("write"), async (req, res) => {
    requireUser(req);
    await create(req, res, 0);
  });

  r.post("/projects/user/:user_id", acceptAvatar(), scope("write"), async (req, res) => {
    requireAdmin(req);
    await create(req, res, params(req, { user_id: p.id("User") }).user_id);
  });

  r.get("/projects", scope("read"), async (req, res) => {
    const q = params(req, {
      ...projectListShape,
      membership: p.bool().optional(),
      search_namespaces: p.bool().optional(),
      with_custom_attributes: p.bool().optional(),
    });
    const c = ctx(deps, req, res);
    const keyset = q.pagination === "keyset" ? keysetBounds(q, "desc") : null;
    const result = await identity.ListProjects(
      {
        ...listProjectsRequest(q, keyset),
        actor: c.actor,
        membership: q.membership ?? false,
        searchNamespaces: q.search_namespaces ?? false,
        customAttributes: customAttributesFilter(req),
      },
      c.call,
    );
    if (keyset) writeKeysetHeaders(deps, req, res, result.projects, Number(result.pageInfo?.total), keyset.page.perPage, keyset.sort, "id");
    else c.paginate(result.pageInfo);
    // Anonymous callers and simple=true get the basic representation, as in GitLab.
    const simple = q.simple || !req.principal;
    const extras = { statistics: q.statistics, admin: req.principal?.isAdmin };
    const storages =
      extras.admin && !simple
        ? await repositoryStorageNames(
            deps,
            req,
            result.projects.map((pr) => pr.diskPath),
          )
        : [];
    const custom = await customAttributesFor(
      deps,
      req,
      "project",
      result.projects.map((pr) => pr.id),
      q.with_custom_attributes,
    );
    res.json(
      result.projects.map((pr, i) => ({
        ...(simple ? projectSimple(pr, c.urls) : projectFull(pr, c.urls, { ...extras, repositoryStorage: storages[i] })),
        ...withCustomAttributes(custom, pr.id),
      })),
    );
  });

  r.get("/projects/:id", scope("read"), async (req, res) => {
    const q = params(req, { id: p.string(), statistics: p.bool().optional(), license: p.bool().optional(), with_custom_attributes: p.bool().optional() });
    const c = ctx(deps, req, res);
    // Through the authorization cache, except with statistics (refreshed after pushes without an access change).
    const project = q.statistics ? await identity.GetProject({ actor: c.actor, idOrPath: q.id }, c.call) : await cachedProject(deps, req, q.id);
    // One round of calls, side by side: the repository's facts (storage included), the runners token, custom attributes.
    const [info, runnersToken, custom] = await Promise.all([
      deps.repo.GetRepositoryInfo({ diskPath: project.diskPath }, c.call),
      runnersTokenFor(deps, req, project),
      customAttributesFor(deps, req, "project", [project.id], q.with_custom_attributes),
    ]);
    const repositoryStorage = req.principal?.isAdmin ? info.storageName || "default" : undefined;
    res.json({
      ...projectFull(project, c.urls, {
        emptyRepo: info.empty,
        statistics: q.statistics,
        license: q.license,
        admin: req.principal?.isAdmin,
        runnersToken,
        repositoryStorage,
      }),
      ...withCustomAttributes(custom, project.id),
    });
  });

  r.put("/projects/:id", acceptAvatar(), scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      id: p.string(),
      name: p.name("name").min(1).optional(),
      path: p.name("path").min(1).optional(),
      description: p.name("description", LIMITS.projectDescription).optional(),
      visibility: visibility.optional(),
      default_branch: p.ref("default_branch").min(1).optional(),
      topics: p.array(p.name("topics")).optional(),
      tag_list: p.array(p.name("tag_list")).optional(),
      archived: p.bool().optional(),
      request_access_enabled: p.bool().optional(),
      ci_config_path: p.name("ci_config_path").optional(),
      enforce_auth_checks_on_uploads: p.bool().optional(),
      ...mergeSettingsShape,
    });
    const avatar = avatarParam(req);
    const c = ctx(deps, req, res);
    const topics = q.topics ?? q.tag_list;
    const project = await identity.UpdateProject(
      {
        actor: c.actor,
        idOrPath: q.id,
        name: q.name,
        path: q.path,
        description: q.description,
        visibility: q.visibility,
        defaultBranch: q.default_branch,
        topics: topics ?? [],
        topicsSet: topics !== undefined,
        archived: q.archived,
        requestAccessEnabled: q.request_access_enabled,
        ciConfigPath: q.ci_config_path,
        enforceAuthChecksOnUploads: q.enforce_auth_checks_on_uploads,
        avatar,
        mergeSettings: mergeSettingsUpdate(q),
      },
      c.call,
    );
    const info = await deps.repo.GetRepositoryInfo({ diskPath: project.diskPath }, c.call);
    const runnersToken = await runnersTokenFor(deps, req, project);
    res.json(projectFull(project, c.urls, { emptyRepo: info.empty, runnersToken }));
  });

  r.delete("/projects/:id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string() });
    const c = ctx(deps, req, res);
    await identity.DeleteProject({ actor: c.actor, idOrPath: q.id }, c.call);
    res.status(202).json({ message: "202 Accepted" });
  });

  // PUT /projects/:id/transfer: GitLab's Projects::TransferService (Owner of the project, who may
  // create projects in the target namespace, given by id or full path).
  r.put("/projects/:id/transfer", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string(), namespace: z.union([z.string().min(1), z.number().int()]).transform(String) });
    const c = ctx(deps, req, res);
    const project = await identity.TransferProject({ actor: c.actor, idOrPath: q.id, namespace: q.namespace }, c.call);
    const info = await deps.repo.GetRepositoryInfo({ diskPath: project.diskPath }, c.call);
    const runnersToken = await runnersTokenFor(deps, req, project);
    res.json(projectFull(project, c.urls, { emptyRepo: info.empty, runnersToken }));
  });

  return r;
}
