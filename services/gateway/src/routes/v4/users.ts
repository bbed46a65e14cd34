import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { membership, userAdmin, userBasic, userPublicProfile, userSelf } from "../../entities/user.ts";
import { projectFull, projectSimple } from "../../entities/project.ts";
import { listProjectsRequest, projectListShape } from "./projects.ts";
import { keysetBounds, keysetShape, writeKeysetHeaders } from "../../http/keyset.ts";
import { ctx } from "./context.ts";
import { acceptAvatar, avatarParam } from "../avatars.ts";
import { customAttributesFilter, customAttributesFor, withCustomAttributes } from "./custom-attributes.ts";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { Request } from "express";
import { cachedUser } from "./user-lookup.ts";

/** UserDetail's limits: 255 characters, job_title 200, pronouns 50. */
const profileShape = {
  bio: p.name("bio").optional(),
  location: p.name("location").optional(),
  public_email: p.name("public_email").optional(),
  website_url: p.name("website_url").optional(),
  organization: p.name("organization").optional(),
  job_title: p.name("job_title", 200).optional(),
  pronouns: p.name("pronouns", 50).optional(),
  note: p.string().optional(),
  private_profile: p.bool().optional(),
};

/** Devise's password_length upper bound. */
const PASSWORD_MAX = 128;

const identityShape = {
  provider: p.name("provider").min(1).optional(),
  extern_uid: p.name("extern_uid").min(1).optional(),
};

/** GitLab's all_or_none_of: provider and extern_uid come together or not at all. */
function identityParams(q: { provider?: string; extern_uid?: string }): { provider?: string; externUid?: string } {
  if ((q.provider === undefined) !== (q.extern_uid === undefined)) {
    throw new ApiError(400, { error: "extern_uid, provider provide all or none of parameters" });
  }
  return { provider: q.provider, externUid: q.extern_uid };
}

function profile(q: { [K in keyof typeof profileShape]?: string | boolean }) {
  return {
    bio: q.bio as string | undefined,
    location: q.location as string | undefined,
    publicEmail: q.public_email as string | undefined,
    websiteUrl: q.website_url as string | undefined,
    organization: q.organization as string | undefined,
    jobTitle: q.job_title as string | undefined,
    pronouns: q.pronouns as string | undefined,
    note: q.note as string | undefined,
    privateProfile: q.private_profile as boolean | undefined,
  };
}

/** The users who created these (GitLab's created_by, filled when an administrator made the account). */
export async function creators(deps: GatewayDeps, req: Request, users: User[]): Promise<Map<number, User>> {
  const ids = [...new Set(users.map((u) => Number(u.createdById)).filter((id) => id > 0))];
  if (!ids.length) return new Map();
  const res = await deps.identity.GetUsers({ actor: { userId: req.principal?.userId ?? 0, isAdmin: true }, ids }, { requestId: req.requestId });
  return new Map(res.users.map((u) => [Number(u.id), u]));
}

/** The state changes of lib/api/users.rb; GitLab answers 201 with true, false or null. */
const STATE_ACTIONS = ["block", "unblock", "deactivate", "activate", "ban", "unban"] as const;

/** Users: /user, /users, /users/:id, /users/:id/projects, state changes, memberships. */
export function usersRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  r.get("/user", scope("read_user"), async (req, res) => {
    const me = requireUser(req);
    const c = ctx(deps, req, res);
    const user = await cachedUser(deps, req, me.userId);
    res.json(me.isAdmin ? userAdmin(user, c.urls, (await creators(deps, req, [user])).get(Number(user.createdById))) : userSelf(user, c.urls));
  });

  r.get("/users", scope("read_user"), async (req, res) => {
    const q = params(req, {
      ...pageShape,
      username: p.searchTerm("username").optional(),
      public_email: p.searchTerm("public_email").optional(),
      search: p.searchTerm("search").optional(),
      active: p.bool().optional(),
      blocked: p.bool().optional(),
      external: p.bool().optional(),
      humans: p.bool().optional(),
      exclude_active: p.bool().optional(),
      exclude_external: p.bool().optional(),
      exclude_humans: p.bool().optional(),
      exclude_internal: p.bool().optional(),
      without_project_bots: p.bool().optional(),
      two_factor: p.enum(["enabled", "disabled"]).optional(),
      without_projects: p.bool().optional(),
      with_custom_attributes: p.bool().optional(),
      admins: p.bool().optional(),
      order_by: p.enum(["id", "name", "username", "created_at", "updated_at"]).optional(),
      sort: p.enum(["asc", "desc"]).optional(),
      created_after: p.datetime().optional(),
      created_before: p.datetime().optional(),
      ...identityShape,
      ...keysetShape,
    });
    const byIdentity = identityParams(q);
    // Looking a user up by external identity is for administrators (GitLab: authenticated_as_admin!).
    if (byIdentity.provider) requireAdmin(req);
    // Anonymous callers may only look one user up by username (GitLab: read_users_list).
    if (!req.principal && !q.username) throw new ApiError(403, { message: "403 Forbidden - Not authorized to access /api/v4/users" });
    const admin = Boolean(req.principal?.isAdmin);
    const c = ctx(deps, req, res);
    // order_by and sort are administrators' (GitLab drops them for everyone else).
    const keyset = q.pagination === "keyset" ? keysetBounds(admin ? q : { ...q, order_by: undefined, sort: undefined }, "desc") : null;
    const result = await identity.ListUsers(
      {
        actor: c.actor,
        page: keyset ? keyset.page : pageRequest(q),
        username: q.username ?? "",
        search: q.search ?? "",
        active: q.active ?? false,
        blocked: q.blocked ?? false,
        external: q.external ?? false,
        admins: q.admins ?? false,
        orderBy: keyset ? "id" : (q.order_by ?? ""),
        sort: keyset ? keyset.sort : (q.sort ?? ""),
        createdAfter: q.created_after ?? "",
        createdBefore: q.created_before ?? "",
        idAfter: keyset?.idAfter ?? 0,
        idBefore: keyset?.idBefore ?? 0,
        provider: byIdentity.provider ?? "",
        externUid: byIdentity.externUid ?? "",
        publicEmail: q.public_email ?? "",
        humans: q.humans ?? false,
        excludeActive: q.exclude_active ?? false,
        excludeExternal: q.exclude_external ?? false,
        excludeHumans: q.exclude_humans ?? false,
        excludeInternal: q.exclude_internal ?? false,
        withoutProjectBots: q.without_project_bots ?? false,
        twoFactor: q.two_factor ?? "",
        withoutProjects: q.without_projects ?? false,
        customAttributes: customAttributesFilter(req),
      },
      c.call,
    );
    if (keyset) writeKeysetHeaders(deps, req, res, result.users, Number(result.pageInfo?.total), keyset.page.perPage, keyset.sort, "cursor");
    else c.paginate(result.pageInfo);
    const custom = await customAttributesFor(
      deps,
      req,
      "user",
      result.users.map((u) => u.id),
      q.with_custom_attributes,
    );
    const by = admin ? await creators(deps, req, result.users) : new Map<number, User>();
    res.json(
      result.users.map((u) => ({
        ...(admin ? userAdmin(u, c.urls, by.get(Number(u.createdById))) : userBasic(u, c.urls)),
        ...withCustomAttributes(custom, u.id),
      })),
    );
  });

  r.get("/users/:id", scope("read_user"), async (req, res) => {
    requireUser(req);
    const q = params(req, { id: p.id("User"), with_custom_attributes: p.bool().optional() });
    const c = ctx(deps, req, res);
    const user = await cachedUser(deps, req, q.id);
    const custom = await customAttributesFor(deps, req, "user", [user.id], q.with_custom_attributes);
    const view = req.principal!.isAdmin
      ? userAdmin(user, c.urls, (await creators(deps, req, [user])).get(Number(user.createdById)))
      : userPublicProfile(user, c.urls);
    res.json({ ...view, ...withCustomAttributes(custom, user.id) });
  });

  r.post("/users", acceptAvatar(), scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, {
      username: p.name("username").min(1),
      email: p.name("email").min(1),
      name: p.name("name").min(1),
      password: p.name("password", PASSWORD_MAX).optional(),
      reset_password: p.bool().optional(),
      force_random_password: p.bool().optional(),
      admin: p.bool().optional(),
      skip_confirmation: p.bool().optional(),
      external: p.bool().optional(),
      can_create_group: p.bool().optional(),
      projects_limit: p.int().pipe(z.number().min(0)).optional(),
      ...profileShape,
      ...identityShape,
    });
    const newIdentity = identityParams(q);
    const avatar = avatarParam(req);
    const c = ctx(deps, req, res);
    const user = await identity.CreateUser(
      {
        actor: c.actor,
        username: q.username,
        email: q.email,
        name: q.name,
        password: q.password ?? "",
        admin: q.admin ?? false,
        skipConfirmation: q.skip_confirmation ?? false,
        profile: profile(q),
        external: q.external,
        canCreateGroup: q.can_create_group,
        projectsLimit: q.projects_limit,
        ...newIdentity,
        avatar,
      },
      c.call,
    );
    res.status(201).json(userAdmin(user, c.urls, (await creators(deps, req, [user])).get(Number(user.createdById))));
  });

  r.put("/users/:id", acceptAvatar(), scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, {
      id: p.id("User"),
      username: p.name("username").min(1).optional(),
      email: p.name("email").min(1).optional(),
      name: p.name("name").min(1).optional(),
      password: p.name("password", PASSWORD_MAX).optional(),
      admin: p.bool().optional(),
      external: p.bool().optional(),
      can_create_group: p.bool().optional(),
      projects_limit: p.int().pipe(z.number().min(0)).optional(),
      ...profileShape,
      ...identityShape,
      // Quarry extension: the top-level group that provisions the account and claims it (enterprise users).
      provisioned_by_group_id: p.id("Group").optional(),
    });
    const changedIdentity = identityParams(q);
    const avatar = avatarParam(req);
    const c = ctx(deps, req, res);
    const user = await identity.UpdateUser(
      {
        actor: c.actor,
        id: q.id,
        username: q.username,
        email: q.email,
        name: q.name,
        password: q.password,
        admin: q.admin,
        profile: profile(q),
        external: q.external,
        canCreateGroup: q.can_create_group,
        projectsLimit: q.projects_limit,
        ...changedIdentity,
        avatar,
        provisionedByGroupId: q.provisioned_by_group_id,
      },
      c.call,
    );
    res.json(userAdmin(user, c.urls, (await creators(deps, req, [user])).get(Number(user.createdById))));
  });

  r.delete("/users/:id", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User"), hard_delete: p.bool().optional() });
    const c = ctx(deps, req, res);
    await identity.DeleteUser({ actor: c.actor, id: q.id, hardDelete: q.hard_delete ?? false }, c.call);
    deps.tokenCache.evictUser(q.id);
    res.status(204).end();
  });

  for (const action of STATE_ACTIONS) {
    r.post(`/users/:id/${action}`, scope("write"), async (req, res) => {
      requireAdmin(req);
      const q = params(req, { id: p.id("User") });
      const c = ctx(deps, req, res);
      const result = await identity.ChangeUserState({ actor: c.actor, id: q.id, action }, c.call);
      // The user's cached tokens must stop (or may start again) at once.
      deps.tokenCache.evictUser(q.id);
      res.status(201).json(result.noop ? null : result.changed);
    });
  }

  r.get("/users/:user_id/memberships", scope("read"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { ...pageShape, user_id: p.id("User"), type: p.enum(["Project", "Namespace"]).optional() });
    const c = ctx(deps, req, res);
    const result = await identity.ListUserMemberships({ actor: c.actor, userId: q.user_id, type: q.type ?? "", page: pageRequest(q) }, c.call);
    c.paginate(result.pageInfo);
    res.json(result.memberships.map(membership));
  });

  r.get("/users/:id/projects", scope("read"), async (req, res) => {
    const q = params(req, { ...projectListShape, id: p.id("User") });
    const c = ctx(deps, req, res);
    await identity.GetUser({ actor: c.actor, id: q.id }, c.call); // 404 for an unknown user
    const result = await identity.ListProjects({ ...listProjectsRequest(q, null), actor: c.actor, ownerUserId: q.id }, c.call);
    c.paginate(result.pageInfo);
    res.json(result.projects.map((pr) => (q.simple ? projectSimple(pr, c.urls) : projectFull(pr, c.urls))));
  });

  return r;
}
