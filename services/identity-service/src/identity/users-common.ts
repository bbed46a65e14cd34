import { conflict, paramError, ServiceError, status } from "@quarry/grpc";
import type { UserProfile__Output } from "@quarry/proto/types/identity/v1/UserProfile";
import type { Tx } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { validatePath } from "./validate.ts";

/** Username rules: a valid path (it names the personal namespace), unique against users and groups. */
export async function assertUsernameFree(tx: Tx, username: string, exceptUserId = 0): Promise<void> {
  try {
    validatePath(username, "username", true);
  } catch {
    throw paramError("username does not have a valid value");
  }
  const lower = username.toLowerCase();
  const user = await tx.user.findUnique({ where: { usernameLower: lower }, select: { id: true } });
  const ns = await tx.namespace.findUnique({ where: { fullPathLower: lower }, select: { ownerId: true } });
  if ((user && user.id !== exceptUserId) || (ns && ns.ownerId !== exceptUserId)) {
    throw conflict("Username has already been taken");
  }
}

export async function assertEmailFree(tx: Tx, email: string, exceptUserId = 0): Promise<void> {
  const found = await tx.user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true } });
  if (found && found.id !== exceptUserId) throw conflict("Email has already been taken");
  // Another user's secondary address is taken too (GitLab's unique_email validations).
  const secondary = await tx.email.findFirst({ where: { email: email.toLowerCase(), NOT: { userId: exceptUserId } }, select: { id: true } });
  if (secondary) throw conflict("Email has already been taken");
}

/** Only the profile fields that were sent, so that updates leave the rest untouched. */
export function profileData(p: UserProfile__Output | null | undefined): Prisma.UserUpdateInput {
  if (!p) return {};
  const data: Prisma.UserUpdateInput = {};
  if (p.bio !== undefined) data.bio = p.bio;
  if (p.location !== undefined) data.location = p.location;
  if (p.publicEmail !== undefined) data.publicEmail = p.publicEmail;
  if (p.websiteUrl !== undefined) data.websiteUrl = p.websiteUrl;
  if (p.organization !== undefined) data.organization = p.organization;
  if (p.jobTitle !== undefined) data.jobTitle = p.jobTitle;
  if (p.pronouns !== undefined) data.pronouns = p.pronouns;
  if (p.note !== undefined) data.note = p.note;
  if (p.privateProfile !== undefined) data.privateProfile = p.privateProfile;
  return data;
}

/** Identity fields sent together, or neither (GitLab's all_or_none_of on provider and extern_uid). */
export function identityInput(provider: string | undefined, externUid: string | undefined): { provider: string; externUid: string } | undefined {
  if (!provider && !externUid) return undefined;
  if (!provider || !externUid) throw paramError("extern_uid, provider provide all or none of parameters");
  return { provider, externUid };
}

/**
 * Creates or replaces the user's identity for a provider. An extern_uid is unique per provider,
 * case-insensitively, as in GitLab.
 */
export async function upsertIdentity(tx: Tx, userId: number, identity: { provider: string; externUid: string }): Promise<void> {
  const taken = await tx.identity.findFirst({
    where: { provider: identity.provider, externUid: { equals: identity.externUid, mode: "insensitive" }, NOT: { userId } },
    select: { id: true },
  });
  if (taken) throw new ServiceError(status.INVALID_ARGUMENT, { message: { "identities.extern_uid": ["has already been taken"] } });
  await tx.identity.upsert({
    where: { userId_provider: { userId, provider: identity.provider } },
    create: { userId, provider: identity.provider, externUid: identity.externUid },
    update: { externUid: identity.externUid },
  });
}

/** What userToProto needs besides the user row. */
export const userInclude = {
  namespace: { select: { id: true } },
  identities: { orderBy: { id: "asc" }, select: { provider: true, externUid: true } },
} as const satisfies Prisma.UserInclude;

/** GitLab's internal user types (User::INTERNAL_USER_TYPES): never humans, never counted. */
export const INTERNAL_USER_TYPES = [
  "ghost",
  "support_bot",
  "alert_bot",
  "visual_review_bot",
  "migration_bot",
  "security_bot",
  "automation_bot",
  "admin_bot",
  "suggested_reviewers_bot",
  "llm_bot",
  "duo_code_review_bot",
  "placeholder",
  "import_user",
];
