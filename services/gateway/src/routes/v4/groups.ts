import { AccessLevel, PROJECT_CREATION_LEVELS, SUBGROUP_CREATION_LEVELS, VISIBILITIES } from "@quarry/gitlab";
import type { Group__Output as Group } from "@quarry/proto/types/identity/v1/Group";
import { type Request, Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest, setNextPageLink } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { groupDetail, groupListItem } from "../../entities/group.ts";
import { projectFull, projectSimple } from "../../entities/project.ts";
import { listProjectsRequest, projectListShape } from "./projects.ts";
import { keysetBounds, keysetShape, writeKeysetHeaders } from "../../http/keyset.ts";
import { repositoryStorageNames } from "./repository-storage-moves.ts";
import { groupWikiBase } from "./wikis.ts";
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
  // Gitlab::Access.all_values (with EE's minimal access and the planner role).
  min_access_level: p
    .int()
    .refine((v) => [5, 10, 15, 20, 30, 40, 50].includes(v))
    .optional(),
  top_level_only: p.bool().optional(),
  all_available: p.bool().optional(),
  visibility: visibility.optional(),
  skip_groups: p.array(p.int()).optional(),
  statistics: p.bool().optional(),
  with_custom_attributes: p.bool().optional(),
  active: p.bool().optional(),
  archived: p.bool().optional(),
  ...keysetShape,
};

/** GitLab's answer for keyset orders it cannot page (groups page by name ascending). */
const KEYSET_UNAVAILABLE = { message: "Keyset pagination is not yet available for this type of request" };

/** The position in a name-ordered keyset page: the last group's name and id, base64url JSON. */
function decodeNameCursor(cursor: string): { name: string; id: number } | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { name?: unknown; id?: unknown };
    const id = Number(v.id);
    return typeof v.name === "string" && Number.isInteger(id) && id > 0 ? { name: v.name, id } : null;
  } catch {
    return null;
  }
}

/** GitLab's user_can_admin_group (admin_group): the group's Owners and administrators. */
function canAdminGroup(req: Request, group: Group): boolean {
  return Boolean(req.principal?.isAdmin) || group.callerAccessLevel >= AccessLevel.OWNER;
}

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
    const [repositoryStorage] = await repositoryStorageNames(deps, req, [groupWikiBase(Number(group.id))]);
    res.status(201).json(groupDetail(group, c.urls, [], { canAdmin: true, repositoryStorage }));
  });

  const list =
    (parent: "none" | "children" | "descendants") =>
    async (req: Parameters<Parameters<typeof r.get>[1]>[0], res: Parameters<Parameters<typeof r.get>[1]>[1]) => {
      const q = params(req, { ...listShape, ...(parent !== "none" ? { id: p.string() } : {}) });
      const c = ctx(deps, req, res);
      let parentId = 0;
      if (parent !== "none") parentId = Number((await identity.GetGroup({ actor: c.actor, idOrPath: String((q as { id: string }).id) }, c.call)).id);
      // Keyset pages: GitLab's CursorBasedKeyset pages groups by name (ascending, the default
      // order); Quarry also pages by id. Other orders answer GitLab's 405.
      const keysetByName = q.pagination === "keyset" && (q.order_by ?? "name") === "name";
      if (keysetByName && q.sort === "desc") throw new ApiError(405, KEYSET_UNAVAILABLE);
      if (q.pagination === "keyset" && !keysetByName && q.order_by !== "id") throw new ApiError(405, KEYSET_UNAVAILABLE);
      const keyset = q.pagination === "keyset" && !keysetByName ? keysetBounds(q, "asc") : null;
      const nameCursor = keysetByName && q.cursor ? decodeNameCursor(q.cursor) : null;
      if (keysetByName && q.cursor && !nameCursor) throw new ApiError(400, { error: "cursor does not have a valid value" });
      const perPage = pageRequest(q).perPage;
      const result = await identity.ListGroups(
        {
          actor: c.actor,
          page: keyset ? keyset.page : keysetByName ? { page: 1, perPage } : pageRequest(q),
          search: q.search ?? "",
          orderBy: keyset ? "id" : keysetByName ? "name" : (q.order_by ?? ""),
          sort: keyset ? keyset.sort : keysetByName ? "asc" : (q.sort ?? ""),
          owned: q.owned ?? false,
          minAccessLevel: q.min_access_level ?? 0,
          topLevelOnly: q.top_level_only ?? false,
          allAvailable: q.all_available,
          visibility: q.visibility ?? "",
          skipGroups: q.skip_groups ?? [],
          parentId,
          descendants: parent === "descendants",
          idAfter: keyset?.idAfter ?? 0,
          idBefore: keyset?.idBefore ?? 0,
          nameAfter: nameCursor?.name,
          nameAfterId: nameCursor?.id ?? 0,
          customAttributes: customAttributesFilter(req),
          statistics: q.statistics ?? false,
          active: q.active,
          archived: q.archived,
        },
        c.call,
      );
      if (keyset) writeKeysetHeaders(deps, req, res, result.groups, Number(result.pageInfo?.total), keyset.page.perPage, keyset.sort, "cursor");
      else if (keysetByName) {
        res.setHeader("X-Per-Page", String(perPage));
        const last = result.groups.at(-1);
        if (last && Number(result.pageInfo?.total) > result.groups.length) {
          const cursor = Buffer.from(JSON.stringify({ name: last.name, id: Number(last.id) })).toString("base64url");
          setNextPageLink(req, res, deps.config.externalUrl, { cursor, per_page: String(perPage) });
        }
      } else c.paginate(result.pageInfo);
      const custom = await customAttributesFor(
        deps,
        req,
        "group",
        result.groups.map((g) => g.id),
        q.with_custom_attributes,
      );
      const statistics = Boolean(q.statistics && req.principal?.isAdmin);
      res.json(result.groups.map((g) => ({ ...groupListItem(g, c.urls, { statistics }), ...withCustomAttributes(custom, g.id) })));
    };
  r.get("/groups", scope("read"), list("none"));
  r.get("/groups/:id/subgroups", scope("read"), list("children"));
  r.get("/groups/:id/descendant_groups", scope("read"), list("descendants"));

  /**
   * GroupDetail for the caller: at most 100 of the group's projects (deprecated `projects`, still
   * the default) and, for Owners and administrators, `runners_token` and `enabled_git_access_protocol`.
   */
  const detail = async (req: Request, c: ReturnType<typeof ctx>, group: Group, withProjects: boolean) => {
    let projects: unknown[] | undefined;
    if (withProjects) {
      const result = await identity.ListProjects({ actor: c.actor, namespaceId: group.id, page: { page: 1, perPage: 100 } }, c.call);
      projects = result.projects.map((pr) => projectFull(pr, c.urls));
    }
    const canAdmin = canAdminGroup(req, group);
    // ci-service keeps the group's registration token (created on first request).
    const runnersToken = canAdmin ? (await deps.ci.GetGroupRunnersTokens({ groupIds: [group.id] }, c.call)).tokens[0]?.token : undefined;
    const [repositoryStorage] = await repositoryStorageNames(deps, req, [groupWikiBase(Number(group.id))]);
    return groupDetail(group, c.urls, projects, { canAdmin, runnersToken, repositoryStorage });
  };

  r.get("/groups/:id", scope("read"), async (req, res) => {
    const q = params(req, { id: p.string(), with_projects: p.bool().default(true), with_custom_attributes: p.bool().optional() });
    const c = ctx(deps, req, res);
    const group = await identity.GetGroup({ actor: c.actor, idOrPath: q.id }, c.call);
    const custom = await customAttributesFor(deps, req, "group", [group.id], q.with_custom_attributes);
    res.json({ ...(await detail(req, c, group, q.with_projects)), ...withCustomAttributes(custom, group.id) });
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
    const [repositoryStorage] = await repositoryStorageNames(deps, req, [groupWikiBase(Number(group.id))]);
    res.json(groupDetail(group, c.urls, undefined, { canAdmin: true, repositoryStorage }));
  });

  r.delete("/groups/:id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string() });
    const c = ctx(deps, req, res);
    await identity.DeleteGroup({ actor: c.actor, idOrPath: q.id }, c.call);
    res.status(202).json({ message: "202 Accepted" });
  });

  // POST /groups/:id/transfer: GitLab's Groups::TransferService; no group_id = to the top level.
  r.post("/groups/:id/transfer", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string(), group_id: p.int().optional() });
    const c = ctx(deps, req, res);
    const group = await identity.GetGroup({ actor: c.actor, idOrPath: q.id }, c.call);
    if (!canAdminGroup(req, group)) throw new ApiError(403, { message: "403 Forbidden" });
    if (q.group_id) await identity.GetGroup({ actor: c.actor, idOrPath: String(q.group_id) }, c.call);
    const moved = await identity.TransferGroup({ actor: c.actor, idOrPath: String(group.id), parentId: q.group_id ?? 0 }, c.call);
    res.status(201).json(await detail(req, c, moved, true));
  });

  // POST /groups/:id/projects/:project_id: administrators move a project into the group (201 GroupDetail).
  r.post("/groups/:id/projects/:project_id", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.string(), project_id: p.string() });
    const c = ctx(deps, req, res);
    const group = await identity.GetGroup({ actor: c.actor, idOrPath: q.id }, c.call);
    await identity.TransferProject({ actor: c.actor, idOrPath: q.project_id, namespace: String(group.id) }, c.call);
    res.status(201).json(await detail(req, c, group, true));
  });

  // A new registration token for the group (GitLab's update_runners_registration_token: Owners,
  // administrators); the old one stops working at once.
  r.post("/groups/:id/runners/reset_registration_token", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.string() });
    const c = ctx(deps, req, res);
    const group = await identity.GetGroup({ actor: c.actor, idOrPath: q.id }, c.call);
    if (!canAdminGroup(req, group)) throw new ApiError(403, { message: "403 Forbidden" });
    const token = await deps.ci.ResetGroupRunnersToken({ groupId: group.id }, c.call);
    res.status(201).json({ token: token.token, token_expires_at: token.tokenExpiresAt || null });
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
