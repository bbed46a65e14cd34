// E-mail addresses of users (GitLab's /user/emails and /users/:id/emails, Emails::CreateService,
// Emails::DestroyService) and confirmation by token (Devise's confirmable).
import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { ConfirmEmailRequest__Output } from "@quarry/proto/types/identity/v1/ConfirmEmailRequest";
import type { ConfirmEmailResponse } from "@quarry/proto/types/identity/v1/ConfirmEmailResponse";
import type { CreateEmailRequest__Output } from "@quarry/proto/types/identity/v1/CreateEmailRequest";
import type { Email as EmailMsg } from "@quarry/proto/types/identity/v1/Email";
import type { EmailRequest__Output } from "@quarry/proto/types/identity/v1/EmailRequest";
import type { ListEmailsRequest__Output } from "@quarry/proto/types/identity/v1/ListEmailsRequest";
import type { ListEmailsResponse } from "@quarry/proto/types/identity/v1/ListEmailsResponse";
import type { IdentityDeps, Tx } from "../deps.ts";
import { type ActorInfo, actorOf } from "./access.ts";
import { emailTaken, emailToProto, ensurePrimaryEmail, sendConfirmation } from "./emails-common.ts";
import { claimByVerifiedDomain } from "./enterprise-users-claim.ts";
import { requireAdmin } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";
import { tokenDigest } from "./passwords.ts";
import { validateEmail } from "./validate.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** The user whose addresses are meant: the caller (0), or anyone for administrators (403 otherwise, 404 when unknown). */
async function ownerOf(tx: Tx, actor: ActorInfo, requested: number) {
  const userId = requested || actor.userId;
  if (userId !== actor.userId) requireAdmin(actor);
  const user = await tx.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("User");
  await ensurePrimaryEmail(tx, user);
  return user;
}

export const listEmails =
  (deps: IdentityDeps) =>
  async (req: ListEmailsRequest__Output): Promise<ListEmailsResponse> => {
    const actor = actorOf(req.actor);
    const p = paging(req.page);
    return deps.prisma.$transaction(async (tx) => {
      const user = await ownerOf(tx, actor, Number(req.userId));
      const rows = await tx.email.findMany({ where: { userId: user.id }, orderBy: { id: "asc" } });
      // The primary first, as GitLab's user.emails lists it (its row is the oldest once created).
      rows.sort((a, b) => Number(b.email === user.email) - Number(a.email === user.email) || a.id - b.id);
      return { emails: rows.slice(p.skip, p.skip + p.take).map(emailToProto), pageInfo: pageInfo(rows.length, p) };
    });
  };

export const getEmail =
  (deps: IdentityDeps) =>
  async (req: EmailRequest__Output): Promise<EmailMsg> => {
    const actor = actorOf(req.actor);
    return deps.prisma.$transaction(async (tx) => {
      const user = await ownerOf(tx, actor, Number(req.userId));
      const row = await tx.email.findFirst({ where: { id: Number(req.emailId), userId: user.id } });
      if (!row) throw notFound("Email");
      return emailToProto(row);
    });
  };

export const createEmail =
  (deps: IdentityDeps) =>
  async (req: CreateEmailRequest__Output): Promise<EmailMsg> => {
    const actor = actorOf(req.actor);
    if (!req.email) throw paramError("email is missing");
    if (req.skipConfirmation) requireAdmin(actor);
    const email = req.email.trim().toLowerCase();
    const row = await deps.prisma.$transaction(async (tx) => {
      const user = await ownerOf(tx, actor, Number(req.userId));
      validateEmail(email);
      if ((await emailTaken(tx, email)) || (await tx.email.findUnique({ where: { email } }))) {
        throw badRequest({ email: ["has already been taken"] });
      }
      const confirmed = req.skipConfirmation && actor.isAdmin;
      const digest = confirmed ? null : await sendConfirmation(tx, user, email);
      return tx.email.create({
        data: {
          userId: user.id,
          email,
          confirmedAt: confirmed ? new Date() : null,
          confirmationDigest: digest,
          confirmationSentAt: digest ? new Date() : null,
        },
      });
    });
    deps.outbox.kick();
    return emailToProto(row);
  };

export const deleteEmail =
  (deps: IdentityDeps) =>
  async (req: EmailRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    await deps.prisma.$transaction(async (tx) => {
      const user = await ownerOf(tx, actor, Number(req.userId));
      const row = await tx.email.findFirst({ where: { id: Number(req.emailId), userId: user.id } });
      if (!row) throw notFound("Email");
      if (row.email === user.email) throw badRequest("400 Bad request - Cannot delete primary email");
      await tx.email.delete({ where: { id: row.id } });
      // Mail meant for the deleted address goes to the primary again (NotificationSetting.reset_email_for_user!).
      await tx.notificationSetting.updateMany({
        where: { userId: user.id, notificationEmail: { equals: row.email, mode: "insensitive" } },
        data: { notificationEmail: null },
      });
    });
    return {};
  };

/** Confirms a secondary address, or a user's pending (unconfirmed_email) or unconfirmed primary address. */
export const confirmEmail =
  (deps: IdentityDeps) =>
  async (req: ConfirmEmailRequest__Output): Promise<ConfirmEmailResponse> => {
    if (!req.confirmationToken) throw badRequest({ confirmation_token: ["is invalid"] });
    const digest = tokenDigest(req.confirmationToken);
    return deps.prisma.$transaction(async (tx) => {
      const row = await tx.email.findUnique({ where: { confirmationDigest: digest } });
      if (row) {
        await tx.email.update({ where: { id: row.id }, data: { confirmedAt: new Date(), confirmationDigest: null } });
        return { userId: row.userId, email: row.email };
      }
      const user = await tx.user.findUnique({ where: { confirmationDigest: digest } });
      if (!user) throw badRequest({ confirmation_token: ["is invalid"] });
      await enqueueAccessChange(tx, { user_ids: [user.id] }); // the user's e-mail and confirmed_at
      if (user.unconfirmedEmail) {
        const email = user.unconfirmedEmail;
        if (await emailTaken(tx, email, user.id)) throw badRequest({ email: ["has already been taken"] });
        await tx.user.update({
          where: { id: user.id },
          data: { email, unconfirmedEmail: null, confirmationDigest: null, confirmedAt: user.confirmedAt ?? new Date() },
        });
        await tx.email.upsert({ where: { email }, create: { userId: user.id, email, confirmedAt: new Date() }, update: { confirmedAt: new Date() } });
        await claimByVerifiedDomain(tx, user.id);
        return { userId: user.id, email };
      }
      await tx.user.update({ where: { id: user.id }, data: { confirmedAt: new Date(), confirmationDigest: null } });
      await tx.email.updateMany({ where: { userId: user.id, email: user.email }, data: { confirmedAt: new Date() } });
      await claimByVerifiedDomain(tx, user.id);
      return { userId: user.id, email: user.email };
    });
  };
