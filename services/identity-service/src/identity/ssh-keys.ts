// Users' SSH keys (GitLab's Key, lib/api/users.rb's /user/keys and /users/:id/keys, lib/api/keys.rb).
import { numericRowId, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { badRequest, forbidden, notFound, paramError, ServiceError, status, unauthenticated } from "@quarry/grpc";
import type { CreateSshKeyRequest__Output } from "@quarry/proto/types/identity/v1/CreateSshKeyRequest";
import type { FindSshKeyRequest__Output } from "@quarry/proto/types/identity/v1/FindSshKeyRequest";
import type { GetSshKeyRequest__Output } from "@quarry/proto/types/identity/v1/GetSshKeyRequest";
import type { ListSshKeysRequest__Output } from "@quarry/proto/types/identity/v1/ListSshKeysRequest";
import type { ListSshKeysResponse } from "@quarry/proto/types/identity/v1/ListSshKeysResponse";
import type { SshKey as SshKeyMsg } from "@quarry/proto/types/identity/v1/SshKey";
import type { IdentityDeps, PrismaClient, Tx } from "../deps.ts";
import type { Key, User } from "../generated/prisma/client.ts";
import { actorOf, type ActorInfo } from "./access.ts";
import { userToProto } from "./convert.ts";
import { pageInfo, paging } from "./paging.ts";
import { validateKey } from "./ssh-public-key.ts";
import { userInclude } from "./users-common.ts";

type Db = PrismaClient | Tx;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : "");
export const USAGE_TYPES = ["auth", "signing", "auth_and_signing"] as const;

/** A key row as the SshKey message. */
export function keyToProto(k: Key & { user?: User | null }, extra: Partial<SshKeyMsg> = {}): SshKeyMsg {
  return {
    id: k.id,
    title: k.title,
    key: k.key,
    usageType: k.usageType,
    createdAt: iso(k.createdAt),
    expiresAt: iso(k.expiresAt),
    lastUsedAt: iso(k.lastUsedAt),
    userId: k.userId ?? k.createdById ?? 0,
    fingerprintSha256: `SHA256:${k.fingerprintSha256}`,
    fingerprint: k.fingerprintMd5,
    deployKey: k.type === "DeployKey",
    userName: k.user?.name ?? "",
    ...extra,
  };
}

/** The user named by id or username (case-insensitive); the caller when empty. */
async function targetUser(db: Db, actor: ActorInfo, user: string): Promise<User> {
  if (!user) {
    if (!actor.userId) throw unauthenticated();
    const me = await db.user.findUnique({ where: { id: actor.userId } });
    if (!me) throw unauthenticated();
    return me;
  }
  const id = numericRowId(user);
  const found = id !== undefined ? await db.user.findUnique({ where: { id } }) : await db.user.findUnique({ where: { usernameLower: user.toLowerCase() } });
  if (!found) throw notFound("User");
  return found;
}

/** A date-time input ("2030-01-01" or ISO 8601); INVALID_ARGUMENT when unreadable. */
export function parseExpiry(value: string): Date | null {
  if (!value) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw paramError("expires_at is invalid");
  return d;
}

/**
 * Validates a new key as GitLab's Key model does and refuses a fingerprint already taken by any
 * key (users' and deploy keys alike); returns the columns to store.
 */
export async function newKeyColumns(db: Db, input: { title: string; key: string; expiresAt: Date | null }) {
  const { errors, parsed } = validateKey(input);
  if (parsed) {
    const sha = parsed.fingerprintSha256.slice("SHA256:".length);
    if (await db.key.findUnique({ where: { fingerprintSha256: sha } })) {
      errors.fingerprint_sha256 = [...(errors.fingerprint_sha256 ?? []), "has already been taken"];
    }
  }
  if (Object.keys(errors).length || !parsed) throw badRequest(errors);
  return {
    title: input.title,
    key: input.key.trim(),
    keyType: parsed.type,
    fingerprintMd5: parsed.fingerprintMd5,
    fingerprintSha256: parsed.fingerprintSha256.slice("SHA256:".length),
    expiresAt: input.expiresAt,
  };
}

/** The key with its user: the owner of a user's key, the creator of a deploy key (GitLab's DeployKey#user). */
async function withOwner(db: Db, key: Key & { user: (User & Parameters<typeof userToProto>[0]) | null }): Promise<SshKeyMsg> {
  const owner = key.user ?? (key.createdById ? await db.user.findUnique({ where: { id: key.createdById }, include: userInclude }) : null);
  return keyToProto(key, owner ? { user: userToProto(owner) } : {});
}

export const listSshKeys =
  (deps: IdentityDeps) =>
  async (req: ListSshKeysRequest__Output): Promise<ListSshKeysResponse> => {
    const actor = actorOf(req.actor);
    const user = await targetUser(deps.prisma, actor, req.user);
    const p = paging(req.page);
    const where = { userId: user.id, type: "Key" };
    const [total, keys] = await Promise.all([
      deps.prisma.key.count({ where }),
      deps.prisma.key.findMany({ where, orderBy: { id: "asc" }, skip: p.skip, take: p.take }),
    ]);
    return { keys: keys.map((k) => keyToProto({ ...k, user })), pageInfo: pageInfo(total, p) };
  };

export const getSshKey =
  (deps: IdentityDeps) =>
  async (req: GetSshKeyRequest__Output): Promise<SshKeyMsg> => {
    const actor = actorOf(req.actor);
    if (req.anyUser) {
      // GET /keys/:id: administrators, any key (deploy keys included), with its owner.
      if (!actor.isAdmin) throw forbidden();
      const key = await deps.prisma.key.findUnique({ where: { id: Number(req.keyId) }, include: { user: { include: userInclude } } });
      if (!key) throw new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });
      return withOwner(deps.prisma, key);
    }
    const user = await targetUser(deps.prisma, actor, req.user);
    const key = await deps.prisma.key.findFirst({ where: { id: Number(req.keyId), userId: user.id, type: "Key" } });
    if (!key) throw notFound("Key");
    return keyToProto({ ...key, user });
  };

export const createSshKey =
  (deps: IdentityDeps) =>
  async (req: CreateSshKeyRequest__Output): Promise<SshKeyMsg> => {
    const actor = actorOf(req.actor);
    if (!actor.userId && !actor.system) throw unauthenticated();
    const userId = Number(req.userId) || actor.userId;
    if (userId !== actor.userId && !actor.isAdmin) throw forbidden();
    const usageType = req.usageType || "auth_and_signing";
    if (!(USAGE_TYPES as readonly string[]).includes(usageType)) throw paramError("usage_type does not have a valid value");
    return deps.prisma.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { id: userId } });
      if (!user) throw notFound("User");
      const columns = await newKeyColumns(tx, { title: req.title, key: req.key, expiresAt: parseExpiry(req.expiresAt) });
      const key = await tx.key.create({ data: { ...columns, userId, type: "Key", usageType } });
      return keyToProto({ ...key, user });
    });
  };

export const deleteSshKey =
  (deps: IdentityDeps) =>
  async (req: GetSshKeyRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    const user = await targetUser(deps.prisma, actor, req.user);
    if (user.id !== actor.userId && !actor.isAdmin) throw forbidden();
    const { count } = await deps.prisma.key.deleteMany({ where: { id: Number(req.keyId), userId: user.id, type: "Key" } });
    if (!count) throw notFound("Key");
    return {};
  };

/**
 * KeysFinder: "SHA256:<base64>" looks up fingerprint_sha256, "aa:bb:…" (16 hex pairs) the MD5
 * fingerprint; anything else is GitLab's 400 "Failed to return the key".
 */
export const findSshKey =
  (deps: IdentityDeps) =>
  async (req: FindSshKeyRequest__Output): Promise<SshKeyMsg> => {
    const actor = actorOf(req.actor);
    if (!actor.isAdmin) throw forbidden();
    const fp = req.fingerprint.trim();
    let where: { fingerprintSha256: string } | { fingerprintMd5: string };
    if (fp.startsWith("SHA256:")) where = { fingerprintSha256: fp.slice("SHA256:".length).replace(/=+$/, "") };
    else if (/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/i.test(fp)) where = { fingerprintMd5: fp.toLowerCase() };
    else throw badRequest("Failed to return the key");
    const key = await deps.prisma.key.findFirst({ where, include: { user: { include: userInclude } } });
    if (!key) throw notFound("Key");
    return withOwner(deps.prisma, key);
  };
