import { PROJECT_CREATION_LEVELS, SUBGROUP_CREATION_LEVELS, VISIBILITIES } from "@quarry/gitlab";
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { groupDetail, groupListItem } from "../../entities/group.ts";
import { projectFull, projectSimple } from "../../entities/project.ts";
import { listProjectsRequest, projectListShape } from "./projects.ts";
import { keysetBounds, keysetShape, writeKeysetHeaders } from "../../http/keyset.ts";
import { ctx } from "./context.ts";
import { customAttributesFilter, customAttributesFor, withCustomAttributes } from "./custom-attributes.ts";
import { acceptAvatar, avatarParam } from "../avatars.ts";

const visibility = p.enum(VISIBILITIES);
const creationLevel = p.enum(PROJECT_CREATION_LEVELS);
const subgroupLevel = p.enum(SUBGROUP_CREATION_LEVELS);
const listShape = {
  ...pageShape,
  search: p.searchTerm("search").optional(),
  order_by: p.enum(["name", "path", "id", "similarity"]).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
  owned: p.bool().optional(),
  min_access_level: p.int().optional(),
  top_level_only: p.bool().optional(),
  all_available: p.bool().optional(),
  visibility: visibility.optional(),
  skip_groups: p.array(p.int()).optional(),
  statistics: p.bool().optional(),
  with_custom_attributes: p.bool().optional(),
  ...keysetShape,
};

/** Groups: CRUD, listing, subgroups and a group's projects. Members live in members.ts. */
export function groupsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  r.post("/groups", acceptAvatar(), scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      name: p.name("name").min(1),
      path: p.name("path").min(1),
      parent_id: p.id("Parent Group").optional(),
      visibility: visibility.optional(),
      description: p.name("description").optional(),
      project_creation_level: creationLevel.optional(),
      subgroup_creation_level: subgroupLevel.optional(),
      request_access_enabled: p.bool().optional(),
      default_branch: p.ref("default_branch").optional(),
    });
    const avatar = avatarParam(req);
    const c = ctx(deps, req, res);
    const group = await identity.CreateGroup(
      {
        actor: c.actor,
        name: q.name,
        path: q.path,
        parentId: q.parent_id ?? 0,
        visibility: q.visibility ?? "",
        description: q.description ?? "",
        projectCreationLevel: q.project_creation_level ?? "",
        subgroupCreationLevel: q.subgroup_creation_level ?? "",
        requestAccessEnabled: q.request_access_enabled,
        defaultBranch: q.default_branch ?? "",
        avatar,
      },
      c.call,
    );
    res.status(201).json(groupDetail(group, c.urls, []));
  });

  const list = (subgroups: boolean) => async (req: Parameters<Parameters<typeof r.get>[1]>[0], res: Parameters<Parameters<typeof r.get>[1]>[1]) => {
    const q = params(req, { ...listShape, ...(subgroups ? { id: p.string() } : {}) });
    const c = ctx(deps, req, res);
    let parentId = 0;
    if (subgroups) parentId = Number((await identity.GetGroup({ actor: c.actor, idOrPath: String((q as { id: string }).id) }, c.call)).id);
    const keyset = q.pagination === "keyset" ? keysetBounds(q, "asc") : null;
    const result = await identity.ListGroups(
      {
        actor: c.actor,
        page: keyset ? keyset.page : pageRequest(q),
        search: q.search ?? "",
        orderBy: keyset ? "id" : q.order_by === "similarity" ? "name" : (q.order_by ?? ""),
        sort: keyset ? keyset.sort : (q.sort ?? ""),
        owned: q.owned ?? false,
        minAccessLevel: q.min_access_level ?? 0,
        topLevelOnly: q.top_level_only ?? false,
        allAvailable: q.all_available,
        visibility: q.visibility ?? "",
        skipGroups: q.skip_groups ?? [],
        parentId,
        idAfter: keyset?.idAfter ?? 0,
        idBefore: keyset?.idBefore ?? 0,
        customAttributes: customAttributesFilter(req),
      },
      c.call,
    );
    if (keyset) writeKeysetHeaders(deps, req, res, result.groups, Number(result.pageInfo?.total), keyset.page.perPage, keyset.sort, "cursor");
    else c.paginate(result.pageInfo);
    const custom = await customAttributesFor(
      deps,
      req,
      "group",
      result.groups.map((g) => g.id),
      q.with_custom_attributes,
    );
    res.json(result.groups.map((g) => ({ ...groupListItem(g, c.urls), ...withCustomAttributes(custom, g.id) })));
  };
  r.get("/groups", scope("read"), list(false));
  r.get("/groups/:id/subgroups", scope("read"), list(true));

  r.get("/groups/:id", scope("read"), async (req, res) => {
    const q = params(req, { id: p.string(), with_projects: p.bool().default(true), with_custom_attributes: p.bool().optional() });
    const c = ctx(deps, req, res);
    const group = await identity.GetGroup({ actor: c.actor, idOrPath: q.id }, c.call);
    let projects: unknown[] | undefined;
    if (q.with_projects) {
      // Deprecated but still the default: at most 100 of the group's projects.
      const result = await identity.ListProjects({ actor: c.actor, namespaceId: group.id, page: { page: 1, perPage: 100 } }, c.call);
      projects = result.projects.map((pr) => projectFull(pr, c.urls));
    }
    const custom = await customAttributesFor(deps, req, "group", [group.id], q.with_custom_attributes);
    res.json({ ...groupDetail(group, c.urls, projects), ...withCustomAttributes(custom, group.id) });
  });

  r.put("/groups/:id", acceptAvatar(), scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      id: p.string(),
      name: p.name("name").min(1).optional(),
      path: p.name("path").min(1).optional(),
      description: p.name("description").optional(),
      visibility: visibility.optional(),
      project_creation_level: creationLevel.optional(),
      subgroup_creation_level: subgroupLevel.optional(),
      request_access_enabled: p.bool().optional(),
      default_branch: p.ref("default_branch").optional(),
    });
    const avatar = avatarParam(req);
    const c = ctx(deps, req, res);
    const group = await identity.UpdateGroup(
      {
        actor: c.actor,
        idOrPath: q.id,
        name: q.name,
        path: q.path,
        description: q.description,
        visibility: q.visibility,
        projectCreationLevel: q.project_creation_level,
        subgroupCreationLevel: q.subgroup_creation_level,
        requestAccessEnabled: q.request_access_enabled,
        defaultBranch: q.default_branch,
        avatar,
      },
      c.call,
    );
    res.json(groupDetail(group, c.urls, undefined));
  });

  r.delete("/groups/:id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string() });
    const c = ctx(deps, req, res);
    await identity.DeleteGroup({ actor: c.actor, idOrPath: q.id }, c.call);
    res.status(202).json({ message: "202 Accepted" });
  });

  r.get("/groups/:id/projects", scope("read"), async (req, res) => {
    const q = params(req, { ...projectListShape, id: p.string(), include_subgroups: p.bool().optional() });
    const c = ctx(deps, req, res);
    const group = await identity.GetGroup({ actor: c.actor, idOrPath: q.id }, c.call);
    const keyset = q.pagination === "keyset" ? keysetBounds(q, "desc") : null;
    const result = await identity.ListProjects(
      { ...listProjectsRequest(q, keyset), actor: c.actor, namespaceId: group.id, includeSubgroups: q.include_subgroups ?? false },
      c.call,
    );
    if (keyset) writeKeysetHeaders(deps, req, res, result.projects, Number(result.pageInfo?.total), keyset.page.perPage, keyset.sort, "id");
    else c.paginate(result.pageInfo);
    res.json(result.projects.map((pr) => (q.simple ? projectSimple(pr, c.urls) : projectFull(pr, c.urls))));
  });

  return r;
}

export { z };
