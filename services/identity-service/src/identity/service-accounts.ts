// Service accounts (GitLab's Users::ServiceAccounts::CreateService / UpdateService, API::ServiceAccounts,
// API::GroupServiceAccounts): bot users of type "service_account", instance-wide (administrators) or
// provisioned by a top-level group (its Owners or administrators), with personal access tokens the
// group's Owners manage.
import { randomBytes } from "node:crypto";
import { enqueueEvent, Subjects } from "@quarry/bus";
import { AccessLevel } from "@quarry/gitlab";
import { badRequest, forbidden, notFound, paramError } from "@quarry/grpc";
import type { CreateServiceAccountRequest__Output } from "@quarry/proto/types/identity/v1/CreateServiceAccountRequest";
import type { CreateServiceAccountTokenRequest__Output } from "@quarry/proto/types/identity/v1/CreateServiceAccountTokenRequest";
import type { DeleteServiceAccountRequest__Output } from "@quarry/proto/types/identity/v1/DeleteServiceAccountRequest";
import type { ListPersonalAccessTokensResponse } from "@quarry/proto/types/identity/v1/ListPersonalAccessTokensResponse";
import type { ListServiceAccountsRequest__Output } from "@quarry/proto/types/identity/v1/ListServiceAccountsRequest";
import type { ListServiceAccountsResponse } from "@quarry/proto/types/identity/v1/ListServiceAccountsResponse";
import type { ListServiceAccountTokensRequest__Output } from "@quarry/proto/types/identity/v1/ListServiceAccountTokensRequest";
import type { PersonalAccessToken as TokenMsg } from "@quarry/proto/types/identity/v1/PersonalAccessToken";
import type { RevokeServiceAccountTokenRequest__Output } from "@quarry/proto/types/identity/v1/RevokeServiceAccountTokenRequest";
import type { ServiceAccount as ServiceAccountMsg } from "@quarry/proto/types/identity/v1/ServiceAccount";
import type { UpdateServiceAccountRequest__Output } from "@quarry/proto/types/identity/v1/UpdateServiceAccountRequest";
import type { IdentityDeps, Tx } from "../deps.ts";
import type { Namespace, Prisma, User } from "../generated/prisma/client.ts";
import { ghostUserId } from "./ghost-user.ts";
import { type ActorInfo, actorOf, canSee, eventActor, namespaceLevel } from "./access.ts";
import { tokenToProto } from "./convert.ts";
import { insertToken } from "./create-personal-access-token.ts";
import { enqueueTokenAudit } from "./audit-records.ts";
import { insertUser } from "./create-user.ts";
import { emailTaken, sendConfirmation } from "./emails-common.ts";
import { findGroup, requireAdmin } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";
import { validateScopes } from "./tokens-common.ts";
import { assertUsernameFree } from "./users-common.ts";
import { parseDate, validateEmail, validateName } from "./validate.ts";
import { enqueueAccessChange } from "./access-changes.ts";

type Db = IdentityDeps["prisma"] | Tx;

export const DEFAULT_NAME = "Service account user";
/** GitLab's PersonalAccessToken::MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS: the default expiry. */
const MAX_TOKEN_DAYS = 365;

export function serviceAccountToProto(u: User): ServiceAccountMsg {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    email: u.email,
    unconfirmedEmail: u.unconfirmedEmail ?? "",
    provisionedByGroupId: u.provisionedByGroupId ?? 0,
  };
}

/**
 * The group the request names, for its Owners and administrators: 404 when unknown or invisible,
 * 403 below Owner, 400 for a subgroup where only top-level groups are allowed. Empty = the instance
 * (administrators only).
 */
async function scopeOf(db: Db, actor: ActorInfo, groupRef: string, topLevelOnly: boolean): Promise<Namespace | null> {
  if (!groupRef) {
    requireAdmin(actor);
    return null;
  }
  if (!actor.userId) throw forbidden();
  const group = await findGroup(db, groupRef);
  if (!group) throw notFound("Group");
  const level = await namespaceLevel(db, actor.userId, group);
  if (!canSee(actor, group.visibility, level)) throw notFound("Group");
  if (!actor.isAdmin && level < AccessLevel.OWNER) throw forbidden();
  if (topLevelOnly && group.parentId !== null) throw badRequest("400 Bad request - Group must be a top-level group");
  return group;
}

/** The service account `userId` of the scope (provisioned by the group, or an instance one): 404 otherwise. */
async function accountOf(db: Db, group: Namespace | null, userId: number): Promise<User> {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (user?.userType !== "service_account" || (group && user.provisionedByGroupId !== group.id)) throw notFound("User");
  return user;
}

function checkEmail(email: string): void {
  try {
    validateEmail(email);
  } catch {
    throw badRequest("400 Bad request - Email is invalid");
  }
}

export const createServiceAccount =
  (deps: IdentityDeps) =>
  async (req: CreateServiceAccountRequest__Output): Promise<ServiceAccountMsg> => {
    const actor = actorOf(req.actor);
    const name = req.name || DEFAULT_NAME;
    validateName(name);
    if (req.email) checkEmail(req.email);
    const user = await deps.prisma.$transaction(async (tx) => {
      const group = await scopeOf(tx, actor, req.group, true);
      const prefix = group ? `service_account_group_${group.id}` : "service_account";
      let username = req.username;
      if (!username) {
        do username = `${prefix}_${randomBytes(16).toString("hex")}`;
        while (await tx.user.findUnique({ where: { usernameLower: username } }));
      }
      const generated = `${username}@noreply.${req.host || "localhost"}`.toLowerCase();
      const email = (req.email || generated).toLowerCase();
      if (await emailTaken(tx, email)) throw badRequest("400 Bad request - Email has already been taken");
      // A generated address is confirmed at once; a custom one awaits confirmation (Devise's confirmable).
      const custom = email !== generated;
      await assertUsernameFree(tx, username);
      const inserted = await insertUser(
        tx,
        { username, email, name, confirmed: !custom, createdById: actor.userId, createdFromIp: actor.ipAddress },
        { bot: true, userType: "service_account", external: true, provisionedByGroupId: group?.id ?? null },
      );
      if (!custom) return inserted;
      const digest = await sendConfirmation(tx, inserted, email);
      return tx.user.update({ where: { id: inserted.id }, data: { confirmationDigest: digest } });
    });
    deps.outbox.kick();
    return serviceAccountToProto(user);
  };

export const listServiceAccounts =
  (deps: IdentityDeps) =>
  async (req: ListServiceAccountsRequest__Output): Promise<ListServiceAccountsResponse> => {
    const actor = actorOf(req.actor);
    const group = await scopeOf(deps.prisma, actor, req.group, false);
    if (req.orderBy && !["id", "username"].includes(req.orderBy)) throw paramError("order_by does not have a valid value");
    if (req.sort && !["asc", "desc"].includes(req.sort)) throw paramError("sort does not have a valid value");
    const dir = req.sort === "asc" ? "asc" : "desc";
    const where: Prisma.UserWhereInput = { userType: "service_account", provisionedByGroupId: group ? group.id : null };
    const p = paging(req.page);
    const [total, rows] = await Promise.all([
      deps.prisma.user.count({ where }),
      deps.prisma.user.findMany({
        where,
        orderBy: req.orderBy === "username" ? [{ usernameLower: dir }, { id: dir }] : { id: dir },
        skip: p.skip,
        take: p.take,
      }),
    ]);
    return { accounts: rows.map(serviceAccountToProto), pageInfo: pageInfo(total, p) };
  };

export const updateServiceAccount =
  (deps: IdentityDeps) =>
  async (req: UpdateServiceAccountRequest__Output): Promise<ServiceAccountMsg> => {
    const actor = actorOf(req.actor);
    if (req.name !== undefined) validateName(req.name);
    if (req.email) checkEmail(req.email);
    const user = await deps.prisma.$transaction(async (tx) => {
      const group = await scopeOf(tx, actor, req.group, true);
      const account = await accountOf(tx, group, Number(req.userId));
      const data: Prisma.UserUpdateInput = {};
      if (req.name) data.name = req.name;
      if (req.username && req.username !== account.username) {
        await assertUsernameFree(tx, req.username, account.id);
        data.username = req.username;
        data.usernameLower = req.username.toLowerCase();
        await tx.namespace.updateMany({
          where: { ownerId: account.id, kind: "user" },
          data: { path: req.username, fullPath: req.username, fullPathLower: req.username.toLowerCase() },
        });
      }
      const email = req.email?.toLowerCase();
      if (email && email !== account.email) {
        if (await emailTaken(tx, email, account.id)) throw badRequest("400 Bad request - Email has already been taken");
        // Devise's reconfirmable: the new address waits in unconfirmed_email until its link is followed.
        data.unconfirmedEmail = email;
        data.confirmationDigest = await sendConfirmation(tx, account, email);
      }
      if (Object.keys(data).length) await enqueueAccessChange(tx, { user_ids: [account.id] });
      return Object.keys(data).length ? tx.user.update({ where: { id: account.id }, data }) : account;
    });
    deps.outbox.kick();
    return serviceAccountToProto(user);
  };

export const deleteServiceAccount =
  (deps: IdentityDeps) =>
  async (req: DeleteServiceAccountRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    const ghostId = await ghostUserId(deps);
    await deps.prisma.$transaction(async (tx) => {
      const group = await scopeOf(tx, actor, req.group, true);
      const account = await accountOf(tx, group, Number(req.userId));
      const live = await tx.personalAccessToken.findMany({ where: { userId: account.id, revoked: false }, select: { id: true } });
      // hard_delete also removes groups the account solely owns (GitLab's DeleteUserWorker with hard_delete).
      if (req.hardDelete) {
        const owned = await tx.member.findMany({
          where: { userId: account.id, sourceType: "namespace", accessLevel: AccessLevel.OWNER },
          select: { sourceId: true },
        });
        for (const m of owned) {
          const others = await tx.member.count({
            where: { sourceType: "namespace", sourceId: m.sourceId, accessLevel: AccessLevel.OWNER, NOT: { userId: account.id } },
          });
          if (!others) await tx.namespace.deleteMany({ where: { id: m.sourceId, kind: "group", projects: { none: {} }, children: { none: {} } } });
        }
      }
      await tx.user.delete({ where: { id: account.id } }); // cascades: tokens, memberships, e-mails, namespace
      await enqueueAccessChange(tx, { user_ids: [account.id] });
      for (const t of live) await enqueueEvent(tx, Subjects.tokenRevoke, { event_name: "token_revoke", token_id: t.id, user_id: account.id });
      await enqueueEvent(tx, Subjects.userDestroy, {
        event_name: "user_destroy",
        created_at: account.createdAt.toISOString(),
        updated_at: new Date().toISOString(),
        user_id: account.id,
        name: account.name,
        username: account.username,
        email: account.email,
        ...eventActor(actor),
      });
      // What the account contributed goes to the Ghost User, or with hard_delete is deleted.
      await enqueueEvent(tx, Subjects.userContributions, { user_id: account.id, ghost_user_id: ghostId, hard_delete: req.hardDelete });
    });
    deps.outbox.kick();
    return {};
  };

export const createServiceAccountToken =
  (deps: IdentityDeps) =>
  async (req: CreateServiceAccountTokenRequest__Output): Promise<TokenMsg> => {
    const actor = actorOf(req.actor);
    if (!req.name) throw paramError("name is missing");
    validateScopes(req.scopes);
    const today = Date.parse(new Date().toISOString().slice(0, 10));
    const expiresAt = parseDate(req.expiresAt, "expires_at") ?? new Date(today + MAX_TOKEN_DAYS * 86_400_000);
    if (expiresAt.getTime() < today) throw badRequest({ expires_at: ["must be in the future"] });
    const { row, clear } = await deps.prisma.$transaction(async (tx) => {
      const group = await scopeOf(tx, actor, req.group, true);
      const account = await accountOf(tx, group, Number(req.userId));
      const created = await insertToken(tx, { userId: account.id, name: req.name, scopes: req.scopes, expiresAt, description: req.description });
      await enqueueTokenAudit(tx, "created", created.row, actor);
      return created;
    });
    deps.outbox.kick();
    return tokenToProto(row, clear);
  };

const TOKEN_SORTS: Record<string, Prisma.PersonalAccessTokenOrderByWithRelationInput[]> = {
  created_asc: [{ createdAt: "asc" }, { id: "asc" }],
  created_desc: [{ createdAt: "desc" }, { id: "desc" }],
  expires_asc: [{ expiresAt: { sort: "asc", nulls: "last" } }, { id: "asc" }],
  expires_desc: [{ expiresAt: { sort: "desc", nulls: "last" } }, { id: "desc" }],
  last_used_asc: [{ lastUsedAt: { sort: "asc", nulls: "first" } }, { id: "asc" }],
  last_used_desc: [{ lastUsedAt: { sort: "desc", nulls: "last" } }, { id: "desc" }],
  name_asc: [{ name: "asc" }, { id: "asc" }],
  name_desc: [{ name: "desc" }, { id: "desc" }],
};

function instant(value: string, field: string): Date | null {
  if (!value) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw paramError(`${field} is invalid`);
  return d;
}

export const listServiceAccountTokens =
  (deps: IdentityDeps) =>
  async (req: ListServiceAccountTokensRequest__Output): Promise<ListPersonalAccessTokensResponse> => {
    const actor = actorOf(req.actor);
    if (req.sort && !TOKEN_SORTS[req.sort]) throw paramError("sort does not have a valid value");
    if (req.state && !["active", "inactive"].includes(req.state)) throw paramError("state does not have a valid value");
    const group = await scopeOf(deps.prisma, actor, req.group, true);
    const account = await accountOf(deps.prisma, group, Number(req.userId));
    const and: Prisma.PersonalAccessTokenWhereInput[] = [{ userId: account.id, impersonation: false }];
    const range = (field: "createdAt" | "lastUsedAt" | "expiresAt", after: Date | null, before: Date | null) => {
      if (after) and.push({ [field]: { gt: after } });
      if (before) and.push({ [field]: { lt: before } });
    };
    range("createdAt", instant(req.createdAfter, "created_after"), instant(req.createdBefore, "created_before"));
    range("lastUsedAt", instant(req.lastUsedAfter, "last_used_after"), instant(req.lastUsedBefore, "last_used_before"));
    range("expiresAt", parseDate(req.expiresAfter, "expires_after"), parseDate(req.expiresBefore, "expires_before"));
    const today = new Date(new Date().toISOString().slice(0, 10));
    if (req.state === "active") and.push({ revoked: false, OR: [{ expiresAt: null }, { expiresAt: { gt: today } }] });
    if (req.state === "inactive") and.push({ OR: [{ revoked: true }, { expiresAt: { lte: today } }] });
    if (req.revoked !== undefined) and.push({ revoked: req.revoked });
    if (req.search) and.push({ name: { contains: req.search, mode: "insensitive" } });
    const where = { AND: and };
    const p = paging(req.page);
    const [total, rows] = await Promise.all([
      deps.prisma.personalAccessToken.count({ where }),
      deps.prisma.personalAccessToken.findMany({ where, orderBy: TOKEN_SORTS[req.sort || "created_desc"], skip: p.skip, take: p.take }),
    ]);
    return { tokens: rows.map((t) => tokenToProto(t)), pageInfo: pageInfo(total, p) };
  };

export const revokeServiceAccountToken =
  (deps: IdentityDeps) =>
  async (req: RevokeServiceAccountTokenRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    await deps.prisma.$transaction(async (tx) => {
      const group = await scopeOf(tx, actor, req.group, true);
      const account = await accountOf(tx, group, Number(req.userId));
      const token = await tx.personalAccessToken.findFirst({ where: { id: Number(req.tokenId), userId: account.id, impersonation: false } });
      if (!token) throw notFound("Token");
      if (token.revoked) throw badRequest("400 Bad request");
      await tx.personalAccessToken.update({ where: { id: token.id }, data: { revoked: true } });
      await enqueueEvent(tx, Subjects.tokenRevoke, { event_name: "token_revoke", token_id: token.id, user_id: token.userId });
      await enqueueTokenAudit(tx, "revoked", token, actor);
    });
    deps.outbox.kick();
    return {};
  };
