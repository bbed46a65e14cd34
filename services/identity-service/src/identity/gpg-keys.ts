// Users' GPG keys (GitLab's GpgKey, lib/api/users.rb's /user/gpg_keys and /users/:id/gpg_keys).
import { badRequest, forbidden, notFound, unauthenticated } from "@quarry/grpc";
import type { CreateGpgKeyRequest__Output } from "@quarry/proto/types/identity/v1/CreateGpgKeyRequest";
import type { GpgKey as GpgKeyMsg } from "@quarry/proto/types/identity/v1/GpgKey";
import type { GpgKeyRequest__Output } from "@quarry/proto/types/identity/v1/GpgKeyRequest";
import type { ListGpgKeysRequest__Output } from "@quarry/proto/types/identity/v1/ListGpgKeysRequest";
import type { ListGpgKeysResponse } from "@quarry/proto/types/identity/v1/ListGpgKeysResponse";
import { readKey, type PublicKey } from "openpgp";
import type { IdentityDeps, PrismaClient, Tx } from "../deps.ts";
import type { GpgKey, User } from "../generated/prisma/client.ts";
import { actorOf, type ActorInfo } from "./access.ts";
import { pageInfo, paging } from "./paging.ts";

type Db = PrismaClient | Tx;

export const KEY_PREFIX = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
export const KEY_SUFFIX = "-----END PGP PUBLIC KEY BLOCK-----";
/** GitLab's message when the key is not one armored public key block. */
export const INVALID_KEY_MESSAGE = `is invalid. A valid public GPG key begins with '${KEY_PREFIX}' and ends with '${KEY_SUFFIX}'`;

/** A key row as the GpgKey message. */
export function gpgKeyToProto(k: GpgKey): GpgKeyMsg {
  return {
    id: k.id,
    key: k.key,
    createdAt: k.createdAt.toISOString(),
    userId: k.userId,
    primaryKeyid: k.primaryKeyid,
    fingerprint: k.fingerprint,
  };
}

/** GitLab's key format rule: exactly one public key block, nothing before or after it. */
export function hasKeyFormat(key: string): boolean {
  if (!key.startsWith(KEY_PREFIX) || !key.endsWith(KEY_SUFFIX)) return false;
  const inner = key.slice(KEY_PREFIX.length, key.length - KEY_SUFFIX.length);
  return inner.length > 0 && !inner.includes(KEY_PREFIX) && !inner.includes(KEY_SUFFIX);
}

/** The public key in an armored block, or null when OpenPGP cannot read one (or it is a secret key). */
export async function parsePublicKey(armored: string): Promise<PublicKey | null> {
  try {
    const key = await readKey({ armoredKey: armored });
    return key.isPrivate() ? null : (key as PublicKey);
  } catch {
    return null;
  }
}

/** What GitLab stores of a key: the primary key's id and fingerprint, the subkeys'. */
export function keyIdentity(key: PublicKey) {
  return {
    fingerprint: key.getFingerprint().toUpperCase(),
    primaryKeyid: key.getKeyID().toHex().toUpperCase(),
    subkeys: key.getSubkeys().map((s) => ({ keyid: s.getKeyID().toHex().toUpperCase(), fingerprint: s.getFingerprint().toUpperCase() })),
  };
}

/** The user ids' names and e-mails (lower-cased), in the key's order (GitLab's user_infos). */
export function keyUserInfos(key: PublicKey): { name: string; email: string }[] {
  return key.users.flatMap((u) => (u.userID ? [{ name: u.userID.name, email: u.userID.email.toLowerCase() }] : [])).filter((u) => u.email);
}

/** The user a request names (0 = the caller); NOT_FOUND "User". */
async function targetUser(db: Db, actor: ActorInfo, userId: number): Promise<User> {
  if (!userId) {
    if (!actor.userId) throw unauthenticated();
    const me = await db.user.findUnique({ where: { id: actor.userId } });
    if (!me) throw unauthenticated();
    return me;
  }
  const found = await db.user.findUnique({ where: { id: userId } });
  if (!found) throw notFound("User");
  return found;
}

export const listGpgKeys =
  (deps: IdentityDeps) =>
  async (req: ListGpgKeysRequest__Output): Promise<ListGpgKeysResponse> => {
    const user = await targetUser(deps.prisma, actorOf(req.actor), Number(req.userId));
    const p = paging(req.page);
    const where = { userId: user.id };
    const [total, keys] = await Promise.all([
      deps.prisma.gpgKey.count({ where }),
      deps.prisma.gpgKey.findMany({ where, orderBy: { id: "asc" }, skip: p.skip, take: p.take }),
    ]);
    return { keys: keys.map(gpgKeyToProto), pageInfo: pageInfo(total, p) };
  };

export const getGpgKey =
  (deps: IdentityDeps) =>
  async (req: GpgKeyRequest__Output): Promise<GpgKeyMsg> => {
    const user = await targetUser(deps.prisma, actorOf(req.actor), Number(req.userId));
    const key = await deps.prisma.gpgKey.findFirst({ where: { id: Number(req.keyId), userId: user.id } });
    if (!key) throw notFound("GPG Key");
    return gpgKeyToProto(key);
  };

/**
 * Validates as GitLab's GpgKey model: the key's format first (then nothing else is checked), its
 * uniqueness, then the fingerprint and primary key id read from it, present and unique.
 */
export const createGpgKey =
  (deps: IdentityDeps) =>
  async (req: CreateGpgKeyRequest__Output): Promise<GpgKeyMsg> => {
    const actor = actorOf(req.actor);
    if (!actor.userId && !actor.system) throw unauthenticated();
    const userId = Number(req.userId) || actor.userId;
    if (userId !== actor.userId && !actor.isAdmin) throw forbidden();
    const text = req.key.trim();
    const parsed = hasKeyFormat(text) ? await parsePublicKey(text) : null;
    return deps.prisma.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { id: userId } });
      if (!user) throw notFound("User");
      if (!text) throw badRequest({ key: ["can't be blank", INVALID_KEY_MESSAGE] });
      if (!hasKeyFormat(text)) throw badRequest({ key: [INVALID_KEY_MESSAGE] });
      // No stored key holds a NUL (PostgreSQL text cannot), and the database would refuse to compare one.
      if (!text.includes("\u0000") && (await tx.gpgKey.findFirst({ where: { key: text }, select: { id: true } }))) {
        throw badRequest({ key: ["has already been taken"] });
      }
      if (!parsed) throw badRequest({ fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] });
      const id = keyIdentity(parsed);
      const errors: Record<string, string[]> = {};
      if (await tx.gpgKey.findUnique({ where: { fingerprint: id.fingerprint } })) errors.fingerprint = ["has already been taken"];
      if (await tx.gpgKey.findUnique({ where: { primaryKeyid: id.primaryKeyid } })) errors.primary_keyid = ["has already been taken"];
      // A subkey already registered under another key (only asked once the primary key is new).
      const taken = Object.keys(errors).length
        ? null
        : await tx.gpgKeySubkey.findFirst({
            where: { OR: [{ keyid: { in: id.subkeys.map((s) => s.keyid) } }, { fingerprint: { in: id.subkeys.map((s) => s.fingerprint) } }] },
          });
      if (taken) errors.subkeys = ["is invalid"];
      if (Object.keys(errors).length) throw badRequest(errors);
      const key = await tx.gpgKey.create({
        data: { userId, key: text, fingerprint: id.fingerprint, primaryKeyid: id.primaryKeyid, subkeys: { create: id.subkeys } },
      });
      return gpgKeyToProto(key);
    });
  };

/**
 * Deletes (DELETE) or revokes (POST …/revoke) a key: either way it goes with its subkeys, and as
 * signatures are verified when read, those it made are no longer verified.
 */
export const deleteGpgKey =
  (deps: IdentityDeps) =>
  async (req: GpgKeyRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    const user = await targetUser(deps.prisma, actor, Number(req.userId));
    if (user.id !== actor.userId && !actor.isAdmin) throw forbidden();
    const { count } = await deps.prisma.gpgKey.deleteMany({ where: { id: Number(req.keyId), userId: user.id } });
    if (!count) throw notFound("GPG Key");
    return {};
  };
