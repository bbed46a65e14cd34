import { Subjects } from "@quarry/bus";
import { paramError } from "@quarry/grpc";
import type { CreateUserRequest__Output } from "@quarry/proto/types/identity/v1/CreateUserRequest";
import type { User as UserMsg } from "@quarry/proto/types/identity/v1/User";
import type { Tx } from "../deps.ts";
import type { IdentityDeps } from "../deps.ts";
import { readApplicationSettings } from "./application-settings.ts";
import { actorOf } from "./access.ts";
import { checkAvatar, withAvatarWrites } from "./avatars.ts";
import { userToProto } from "./convert.ts";
import { requireAdmin } from "./lookup.ts";
import { enqueueEvent } from "@quarry/bus";
import { hashPassword } from "./passwords.ts";
import { claimByVerifiedDomain } from "./enterprise-users-claim.ts";
import { assertEmailFree, assertUsernameFree, identityInput, profileData, upsertIdentity } from "./users-common.ts";
import { validateEmail, validateName } from "./validate.ts";

export interface NewUser {
  username: string;
  email: string;
  name: string;
  password?: string;
  admin?: boolean;
  confirmed?: boolean;
  createdById?: number;
  /** The creator's address (audit events). */
  createdFromIp?: string;
}

/** Inserts a user with its personal namespace and publishes user_create (inside the caller's transaction). */
export async function insertUser(tx: Tx, input: NewUser, extra: Record<string, unknown> = {}) {
  await assertUsernameFree(tx, input.username);
  await assertEmailFree(tx, input.email);
  const user = await tx.user.create({
    data: {
      username: input.username,
      usernameLower: input.username.toLowerCase(),
      email: input.email.toLowerCase(),
      name: input.name,
      passwordDigest: input.password ? await hashPassword(input.password) : null,
      isAdmin: Boolean(input.admin),
      confirmedAt: input.confirmed === false ? null : new Date(),
      createdById: input.createdById || null,
      ...extra,
    },
  });
  const ns = await tx.namespace.create({
    data: {
      name: input.name,
      path: input.username,
      kind: "user",
      fullPath: input.username,
      fullPathLower: input.username.toLowerCase(),
      fullName: input.name,
      ownerId: user.id,
      visibility: "public",
    },
  });
  await tx.namespace.update({ where: { id: ns.id }, data: { traversalIds: [ns.id] } });
  await enqueueEvent(tx, Subjects.userCreate, {
    event_name: "user_create",
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    user_id: user.id,
    name: user.name,
    username: user.username,
    email: user.email,
    ...(input.createdById ? { actor: { user_id: input.createdById, ip_address: input.createdFromIp ?? "" } } : {}),
  });
  // A confirmed primary e-mail on a verified domain: the domain's group claims the new user.
  const claim = await claimByVerifiedDomain(tx, user.id);
  return { ...user, ...claim, namespace: { id: ns.id } };
}

export const createUser =
  (deps: IdentityDeps) =>
  async (req: CreateUserRequest__Output): Promise<UserMsg> => {
    requireAdmin(actorOf(req.actor));
    for (const field of ["username", "email", "name"] as const) {
      if (!req[field]) throw paramError(`${field} is missing`);
    }
    validateEmail(req.email);
    validateName(req.name);
    if (req.password && req.password.length < 8) throw paramError("password is too short (minimum is 8 characters)");
    const identity = identityInput(req.provider, req.externUid);
    const avatar = checkAvatar(req.avatar);
    const user = await withAvatarWrites(deps.avatars, (avatars) =>
      deps.prisma.$transaction(async (tx) => {
        const settings = await readApplicationSettings(tx);
        const inserted = await insertUser(
          tx,
          {
            username: req.username,
            email: req.email,
            name: req.name,
            password: req.password,
            admin: req.admin,
            confirmed: true,
            createdById: actorOf(req.actor).userId,
            createdFromIp: actorOf(req.actor).ipAddress,
          },
          {
            ...profileData(req.profile),
            // Unless given: the instance's user_default_external, can_create_group and default_projects_limit.
            external: req.external ?? settings.user_default_external,
            canCreateGroup: req.canCreateGroup ?? settings.can_create_group,
            projectsLimit: req.projectsLimit ?? settings.default_projects_limit,
          },
        );
        const withAvatar =
          avatar && !avatar.remove
            ? { ...inserted, ...(await tx.user.update({ where: { id: inserted.id }, data: await avatars.stage("user", inserted.id, avatar, null) })) }
            : inserted;
        if (!identity) return withAvatar;
        await upsertIdentity(tx, inserted.id, identity);
        return { ...withAvatar, identities: [identity] };
      }),
    );
    deps.outbox.kick();
    return userToProto(user);
  };
