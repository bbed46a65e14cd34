// Enterprise users (GitLab's API::GroupEnterpriseUsers, ee/lib/api/groups/enterprise_users.rb):
// users claimed by a top-level group, through a verified domain of their primary e-mail
// (verified-domains.ts) or by an administrator's provisioned_by_group_id. The group's Owners list,
// read, delete them and turn their two-factor authentication off.
import { AccessLevel } from "@quarry/gitlab";
import { badRequest, failedPrecondition, ServiceError, status, unauthenticated } from "@quarry/grpc";
import type { DeleteEnterpriseUserRequest__Output } from "@quarry/proto/types/identity/v1/DeleteEnterpriseUserRequest";
import type { EnterpriseUserRequest__Output } from "@quarry/proto/types/identity/v1/EnterpriseUserRequest";
import type { ListEnterpriseUsersRequest__Output } from "@quarry/proto/types/identity/v1/ListEnterpriseUsersRequest";
import type { ListUsersResponse } from "@quarry/proto/types/identity/v1/ListUsersResponse";
import type { User as UserMsg } from "@quarry/proto/types/identity/v1/User";
import type { IdentityDeps, PrismaClient, Tx } from "../deps.ts";
import type { Namespace, Prisma } from "../generated/prisma/client.ts";
import { actorOf, type ActorInfo } from "./access.ts";
import { userToProto } from "./convert.ts";
import { deleteGroup } from "./delete-group.ts";
import { removeUser } from "./delete-user.ts";
import { requireLevel, visibleGroup } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";
import { clearTwoFactor } from "./two-factor.ts";
import { INTERNAL_USER_TYPES, userInclude } from "./users-common.ts";

export { claimUsersOnDomain } from "./enterprise-users-claim.ts";

type Db = PrismaClient | Tx;

/** ActiveRecord::RecordNotFound of `user_group.enterprise_users.find`, as GitLab's API answers it. */
const userNotFound = () => new ServiceError(status.NOT_FOUND, { message: "404 Not found" });

/**
 * The group as GitLab's before block and authorize! find it: visible (404 "Group Not Found"),
 * top-level (400 "Must be a top-level group"), the caller an Owner or an administrator (403).
 */
export async function enterpriseGroupOf(db: Db, actor: ActorInfo, group: string): Promise<Namespace> {
  if (!actor.userId && !actor.system) throw unauthenticated();
  const { group: ns, level } = await visibleGroup(db, actor, group);
  if (ns.parentId) throw badRequest("400 Bad request - Must be a top-level group");
  requireLevel(actor, level, AccessLevel.OWNER);
  return ns;
}

async function enterpriseUserOf(db: Db, group: Namespace, userId: number) {
  const user = await db.user.findFirst({ where: { id: userId, enterpriseGroupId: group.id }, include: userInclude });
  if (!user) throw userNotFound();
  return user;
}

/** An ISO 8601 time filter; a value that is not one is the caller's mistake. */
function timeParam(value: string, name: string): Date | null {
  if (!value) return null;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw badRequest(`${name} is invalid`);
  return new Date(t);
}

/** GitLab's Authn::EnterpriseUsersFinder: the group's enterprise users, newest first. */
export const listEnterpriseUsers =
  (deps: IdentityDeps) =>
  async (req: ListEnterpriseUsersRequest__Output): Promise<ListUsersResponse> => {
    const group = await enterpriseGroupOf(deps.prisma, actorOf(req.actor), req.group);
    const p = paging(req.page);
    const and: Prisma.UserWhereInput[] = [{ enterpriseGroupId: group.id }];
    if (req.username) and.push({ usernameLower: req.username.toLowerCase() });
    const query = req.search.trim();
    if (query) {
      and.push({
        OR: [
          { name: { contains: query, mode: "insensitive" } },
          { username: { contains: query, mode: "insensitive" } },
          { email: { contains: query.toLowerCase() } },
        ],
      });
    }
    if (req.active) and.push({ state: "active", userType: { notIn: INTERNAL_USER_TYPES } });
    if (req.blocked) and.push({ state: { in: ["blocked", "ldap_blocked"] } });
    const after = timeParam(req.createdAfter, "created_after");
    const before = timeParam(req.createdBefore, "created_before");
    if (after) and.push({ createdAt: { gt: after } });
    if (before) and.push({ createdAt: { lt: before } });
    if (req.twoFactor === "enabled") and.push({ twoFactorEnabled: true });
    if (req.twoFactor === "disabled") and.push({ twoFactorEnabled: false });
    const where: Prisma.UserWhereInput = { AND: and };
    const [total, rows] = await Promise.all([
      deps.prisma.user.count({ where }),
      deps.prisma.user.findMany({ where, include: userInclude, orderBy: { id: "desc" }, skip: p.skip, take: p.take }),
    ]);
    return { users: rows.map(userToProto), pageInfo: pageInfo(total, p) };
  };

export const getEnterpriseUser =
  (deps: IdentityDeps) =>
  async (req: EnterpriseUserRequest__Output): Promise<UserMsg> => {
    const group = await enterpriseGroupOf(deps.prisma, actorOf(req.actor), req.group);
    return userToProto(await enterpriseUserOf(deps.prisma, group, Number(req.userId)));
  };

/** TwoFactor::DestroyService for the group's Owner: 400 when it is not enabled. */
export const disableEnterpriseUserTwoFactor =
  (deps: IdentityDeps) =>
  async (req: EnterpriseUserRequest__Output): Promise<Record<string, never>> => {
    const group = await enterpriseGroupOf(deps.prisma, actorOf(req.actor), req.group);
    const user = await enterpriseUserOf(deps.prisma, group, Number(req.userId));
    if (!(await clearTwoFactor(deps.prisma, user.id))) {
      throw badRequest("400 Bad request - Two-factor authentication is not enabled for this user");
    }
    deps.outbox.kick();
    return {};
  };

/**
 * The groups `userId` is the only Owner of (GitLab's User#solo_owned_groups): direct Owner
 * memberships with no other Owner in the group.
 */
export async function soloOwnedGroups(db: Db, userId: number): Promise<number[]> {
  const owned = await db.member.findMany({ where: { userId, sourceType: "namespace", accessLevel: AccessLevel.OWNER }, select: { sourceId: true } });
  const solo: number[] = [];
  for (const m of owned) {
    const others = await db.member.count({ where: { sourceType: "namespace", sourceId: m.sourceId, accessLevel: AccessLevel.OWNER, NOT: { userId } } });
    if (!others) solo.push(m.sourceId);
  }
  return solo;
}

/**
 * GitLab's DELETE /groups/:id/enterprise_users/:user_id: 409 for the sole Owner of a group
 * unless hard_delete, which first deletes those groups (with their subgroups and projects, as
 * DELETE /groups/:id does); then the user goes through the removal DELETE /users/:id uses.
 */
export const deleteEnterpriseUser =
  (deps: IdentityDeps) =>
  async (req: DeleteEnterpriseUserRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    const group = await enterpriseGroupOf(deps.prisma, actor, req.group);
    const user = await enterpriseUserOf(deps.prisma, group, Number(req.userId));
    const solo = await soloOwnedGroups(deps.prisma, user.id);
    if (solo.length && !req.hardDelete) throw failedPrecondition("Can not remove a user who is the sole owner of a group.", 409);
    for (const id of solo) {
      // Only the top-most of nested solo-owned groups: deleting it takes its subgroups along.
      const ns = await deps.prisma.namespace.findUnique({ where: { id }, select: { traversalIds: true } });
      if (!ns || ns.traversalIds.some((a) => a !== id && solo.includes(a))) continue;
      // As the system: the enterprise group's Owner may remove what its enterprise user solely owns.
      await deleteGroup(deps)({ actor: { userId: 0, isAdmin: false, system: "enterprise-user-hard-delete", ipAddress: "" }, idOrPath: String(id) });
    }
    await removeUser(deps, user.id, actor, req.hardDelete);
    return {};
  };
