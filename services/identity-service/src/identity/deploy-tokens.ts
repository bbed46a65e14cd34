import { DEPLOY_TOKEN_SCOPES } from "@quarry/gitlab";
// Deploy tokens (GitLab's DeployToken, lib/api/deploy_tokens.rb): credentials of no user for one
// project or one group, managed by its Maintainers; git over HTTP takes them for cloning
// (deploy-tokens-authenticate.ts). Stored only as a SHA-256 digest of the `gldt-…` token.
import { randomBytes } from "node:crypto";
import { enqueueEvent } from "@quarry/bus";
import { AccessLevel, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { badRequest, paramError, ServiceError, status } from "@quarry/grpc";
import type { CreateDeployTokenRequest__Output } from "@quarry/proto/types/identity/v1/CreateDeployTokenRequest";
import type { DeployToken as DeployTokenMsg } from "@quarry/proto/types/identity/v1/DeployToken";
import type { DeployTokenRequest__Output } from "@quarry/proto/types/identity/v1/DeployTokenRequest";
import type { ListDeployTokensRequest__Output } from "@quarry/proto/types/identity/v1/ListDeployTokensRequest";
import type { ListDeployTokensResponse } from "@quarry/proto/types/identity/v1/ListDeployTokensResponse";
import type { IdentityDeps, PrismaClient, Tx } from "../deps.ts";
import type { DeployToken, Prisma } from "../generated/prisma/client.ts";
import { actorOf, type ActorInfo } from "./access.ts";
import { requireAdmin, requireLevel, visibleGroup, visibleProject } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";
import { tokenDigest as tokenDigestOf } from "./passwords.ts";

type Db = PrismaClient | Tx;

/** DeployToken::DEPLOY_TOKEN_PREFIX. */
export const DEPLOY_TOKEN_PREFIX = "gldt-";

/** Outbox subjects (quarry.identity.>): a deploy token was created / deleted, with the acting user. */
export const DeployTokenSubjects = {
  create: "quarry.identity.deploy_token_create",
  destroy: "quarry.identity.deploy_token_destroy",
} as const;

const USERNAME_RE = /^[a-zA-Z0-9.+_-]+$/;

/** A new token in GitLab's format (`gldt-` and 20 random characters). */
export function newDeployToken(): string {
  return `${DEPLOY_TOKEN_PREFIX}${randomBytes(15).toString("base64url")}`;
}

/** DeployToken#username: the given one, else `gitlab+deploy-token-{id}`. */
export const deployTokenUsername = (t: Pick<DeployToken, "id" | "username">): string => t.username ?? `gitlab+deploy-token-${t.id}`;

/** DeployToken#active? — not revoked and not past its expiry (GitLab's `expires_at >= NOW()`). */
export const isActive = (t: Pick<DeployToken, "revoked" | "expiresAt">, now = new Date()): boolean =>
  !t.revoked && (!t.expiresAt || t.expiresAt.getTime() >= now.getTime());

/** The `active` scope as a where clause. */
const activeWhere = (now: Date): Prisma.DeployTokenWhereInput => ({ revoked: false, OR: [{ expiresAt: null }, { expiresAt: { gte: now } }] });

export function deployTokenToProto(t: DeployToken, clearToken = ""): DeployTokenMsg {
  return {
    id: t.id,
    name: t.name,
    username: deployTokenUsername(t),
    expiresAt: t.expiresAt ? t.expiresAt.toISOString() : "",
    scopes: DEPLOY_TOKEN_SCOPES.filter((s) => t.scopes.includes(s)),
    revoked: t.revoked,
    // DeployToken#expired?: `expires_at < Date.today` (a token expiring today is not yet expired,
    // though the `active` scope, `expires_at >= NOW()`, already leaves it out).
    expired: Boolean(t.expiresAt && t.expiresAt.getTime() < Date.parse(new Date().toISOString().slice(0, 10))),
    token: clearToken,
    deployTokenType: t.deployTokenType,
  };
}

/**
 * The holder named by a request: a project or a group the caller maintains (404 invisible, 403
 * below Maintainer; GitLab's API does not ask for a sign-in first, so anonymous callers get the
 * same answers).
 */
type Holder = { kind: "project"; id: number } | { kind: "group"; id: number };

async function maintainedHolder(db: Db, actor: ActorInfo, req: { project: string; group: string }): Promise<Holder> {
  if (req.project) {
    const { project, levels } = await visibleProject(db, actor, req.project);
    requireLevel(actor, levels.effective, AccessLevel.MAINTAINER);
    return { kind: "project", id: project.id };
  }
  if (!req.group) throw paramError("id is missing");
  const { group, level } = await visibleGroup(db, actor, req.group);
  requireLevel(actor, level, AccessLevel.MAINTAINER);
  return { kind: "group", id: group.id };
}

const holderWhere = (h: Holder): Prisma.DeployTokenWhereInput =>
  h.kind === "project" ? { projects: { some: { projectId: h.id } } } : { groups: { some: { groupId: h.id } } };

/** `entity.deploy_tokens.find(id)`: GitLab's bare "404 Not found". */
async function findHeld(db: Db, h: Holder, tokenId: number): Promise<DeployToken> {
  const token = Number.isSafeInteger(tokenId) ? await db.deployToken.findFirst({ where: { id: tokenId, ...holderWhere(h) } }) : null;
  if (!token) throw new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });
  return token;
}

export const listDeployTokens =
  (deps: IdentityDeps) =>
  async (req: ListDeployTokensRequest__Output): Promise<ListDeployTokensResponse> => {
    const actor = actorOf(req.actor);
    let where: Prisma.DeployTokenWhereInput;
    if (!req.project && !req.group) {
      // GET /deploy_tokens: the instance's tokens (those whose project or group still exists).
      requireAdmin(actor);
      where = { OR: [{ projects: { some: {} } }, { groups: { some: {} } }] };
    } else {
      where = holderWhere(await maintainedHolder(deps.prisma, actor, req));
    }
    // TokensFinder: `active=true` keeps the active ones; false or absent, all.
    if (req.active === true) where = { AND: [where, activeWhere(new Date())] };
    const p = paging(req.page);
    const [total, rows] = await Promise.all([
      deps.prisma.deployToken.count({ where }),
      deps.prisma.deployToken.findMany({ where, orderBy: { id: "asc" }, skip: p.skip, take: p.take }),
    ]);
    return { tokens: rows.map((t) => deployTokenToProto(t)), pageInfo: pageInfo(total, p) };
  };

export const getDeployToken =
  (deps: IdentityDeps) =>
  async (req: DeployTokenRequest__Output): Promise<DeployTokenMsg> => {
    const holder = await maintainedHolder(deps.prisma, actorOf(req.actor), req);
    return deployTokenToProto(await findHeld(deps.prisma, holder, Number(req.tokenId)));
  };

/** ActiveRecord's full_messages.to_sentence. */
function toSentence(messages: string[]): string {
  if (messages.length <= 2) return messages.join(" and ");
  return `${messages.slice(0, -1).join(", ")}, and ${messages.at(-1)}`;
}

/** The event payload: the token (never its value), its holder, and who acted. */
function eventPayload(eventName: string, t: DeployToken, holder: Holder, actor: ActorInfo) {
  return {
    event_name: eventName,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
    deploy_token_id: t.id,
    name: t.name,
    username: deployTokenUsername(t),
    scopes: DEPLOY_TOKEN_SCOPES.filter((s) => t.scopes.includes(s)),
    expires_at: t.expiresAt ? t.expiresAt.toISOString() : null,
    deploy_token_type: t.deployTokenType,
    project_id: holder.kind === "project" ? holder.id : null,
    group_id: holder.kind === "group" ? holder.id : null,
    actor_id: actor.userId || null,
  };
}

export const createDeployToken =
  (deps: IdentityDeps) =>
  async (req: CreateDeployTokenRequest__Output): Promise<DeployTokenMsg> => {
    const actor = actorOf(req.actor);
    const unknown = req.scopes.filter((s) => !(DEPLOY_TOKEN_SCOPES as readonly string[]).includes(s));
    if (unknown.length) throw paramError("scopes does not have a valid value");
    let expiresAt: Date | null = null;
    if (req.expiresAt) {
      expiresAt = new Date(req.expiresAt);
      if (Number.isNaN(expiresAt.getTime())) throw paramError("expires_at is invalid");
    }
    const username = req.username.trim() ? req.username : null;
    const clear = newDeployToken();
    const out = await deps.prisma.$transaction(async (tx) => {
      const holder = await maintainedHolder(tx, actor, req);
      // DeployToken's validations, in its order.
      const errors: string[] = [];
      if (!req.scopes.length) errors.push("Scopes can't be blank");
      if (username !== null && username.length > 255) errors.push("Username is too long (maximum is 255 characters)");
      if (username !== null && !USERNAME_RE.test(username)) errors.push("Username can contain only letters, digits, '_', '-', '+', and '.'");
      if (req.name.length > 255) errors.push("Name is too long (maximum is 255 characters)");
      if (errors.length) throw badRequest(toSentence(errors));
      const token = await tx.deployToken.create({
        data: {
          name: req.name,
          username,
          tokenDigest: tokenDigestOf(clear),
          scopes: DEPLOY_TOKEN_SCOPES.filter((s) => req.scopes.includes(s)),
          deployTokenType: holder.kind,
          expiresAt,
          creatorId: actor.userId || null,
          ...(holder.kind === "project" ? { projects: { create: { projectId: holder.id } } } : { groups: { create: { groupId: holder.id } } }),
        },
      });
      await enqueueEvent(tx, DeployTokenSubjects.create, eventPayload("deploy_token_create", token, holder, actor));
      return token;
    });
    deps.outbox.kick();
    return deployTokenToProto(out, clear);
  };

export const deleteDeployToken =
  (deps: IdentityDeps) =>
  async (req: DeployTokenRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    await deps.prisma.$transaction(async (tx) => {
      const holder = await maintainedHolder(tx, actor, req);
      const token = await findHeld(tx, holder, Number(req.tokenId));
      // Projects/Groups::DeployTokens::DestroyService: the token is destroyed, not revoked.
      await tx.deployToken.delete({ where: { id: token.id } });
      await enqueueEvent(tx, DeployTokenSubjects.destroy, eventPayload("deploy_token_destroy", token, holder, actor));
    });
    deps.outbox.kick();
    return {};
  };
