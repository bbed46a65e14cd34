import { forbidden, notFound, paramError } from "@quarry/grpc";
import type { UpdateUserRequest__Output } from "@quarry/proto/types/identity/v1/UpdateUserRequest";
import type { User as UserMsg } from "@quarry/proto/types/identity/v1/User";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { checkAvatar, withAvatarWrites } from "./avatars.ts";
import { userToProto } from "./convert.ts";
import { hashPassword } from "./passwords.ts";
import { assertEmailFree, assertUsernameFree, identityInput, profileData, upsertIdentity, userInclude } from "./users-common.ts";
import { validateEmail, validateName } from "./validate.ts";
import { claimByVerifiedDomain, provisioningClaim } from "./enterprise-users-claim.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** Administrators update anyone (PUT /users/:id is an administrator endpoint in GitLab). */
export const updateUser =
  (deps: IdentityDeps) =>
  async (req: UpdateUserRequest__Output): Promise<UserMsg> => {
    const actor = actorOf(req.actor);
    const id = Number(req.id);
    if (!actor.isAdmin) throw forbidden();
    identityInput(req.provider, req.externUid); // all or none, before any write
    const updated = await withAvatarWrites(deps.avatars, (avatars) =>
      deps.prisma.$transaction(async (tx) => {
        const user = await tx.user.findUnique({ where: { id }, include: { namespace: true } });
        if (!user) throw notFound("User");
        const avatar = checkAvatar(req.avatar);
        const data: Prisma.UserUpdateInput = profileData(req.profile);
        if (req.username !== undefined && req.username !== user.username) {
          await assertUsernameFree(tx, req.username, id);
          data.username = req.username;
          data.usernameLower = req.username.toLowerCase();
          // The personal namespace follows the username (its projects' paths move with it).
          await tx.namespace.update({
            where: { id: user.namespace!.id },
            data: { path: req.username, fullPath: req.username, fullPathLower: req.username.toLowerCase() },
          });
        }
        if (req.email !== undefined) {
          validateEmail(req.email);
          await assertEmailFree(tx, req.email, id);
          data.email = req.email.toLowerCase();
        }
        if (req.name !== undefined) {
          validateName(req.name);
          data.name = req.name;
          await tx.namespace.update({ where: { id: user.namespace!.id }, data: { name: req.name, fullName: req.name } });
        }
        if (req.password !== undefined) {
          if (req.password.length < 8) throw paramError("password is too short (minimum is 8 characters)");
          data.passwordDigest = await hashPassword(req.password);
        }
        if (req.admin !== undefined) data.isAdmin = req.admin;
        if (req.external !== undefined) data.external = req.external;
        if (req.canCreateGroup !== undefined) data.canCreateGroup = req.canCreateGroup;
        if (req.projectsLimit !== undefined) data.projectsLimit = req.projectsLimit;
        const identity = identityInput(req.provider, req.externUid);
        if (identity) await upsertIdentity(tx, id, identity);
        if (avatar) Object.assign(data, await avatars.stage("user", id, avatar, user.avatarKey));
        if (req.provisionedByGroupId !== undefined && Number(req.provisionedByGroupId)) {
          Object.assign(data, await provisioningClaim(tx, user, Number(req.provisionedByGroupId)));
        }
        const updated = await tx.user.update({ where: { id }, data, include: userInclude });
        await enqueueAccessChange(tx, { user_ids: [id] }); // the user as caller, and their personal namespace's projects
        // A new primary e-mail on a verified domain: the domain's group claims the user.
        if (data.email !== undefined && (await claimByVerifiedDomain(tx, id))) return tx.user.findUniqueOrThrow({ where: { id }, include: userInclude });
        return updated;
      }),
    );
    deps.outbox.kick();
    return userToProto(updated);
  };
