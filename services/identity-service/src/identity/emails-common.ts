import { enqueueEvent, Subjects } from "@quarry/bus";
import type { Email as EmailMsg } from "@quarry/proto/types/identity/v1/Email";
import type { Tx } from "../deps.ts";
import type { Email } from "../generated/prisma/client.ts";
import { newToken, tokenDigest } from "./passwords.ts";

/** Whether an address is any user's primary, pending or secondary address (other than `exceptUserId`'s). */
export async function emailTaken(tx: Tx, email: string, exceptUserId = 0): Promise<boolean> {
  const lower = email.toLowerCase();
  const user = await tx.user.findFirst({
    where: { OR: [{ email: lower }, { unconfirmedEmail: lower }], NOT: { id: exceptUserId } },
    select: { id: true },
  });
  if (user) return true;
  const row = await tx.email.findFirst({ where: { email: lower, NOT: { userId: exceptUserId } }, select: { id: true } });
  return Boolean(row);
}

/**
 * GitLab keeps the primary address as a row of `emails` too (confirmed with the user): make sure it
 * exists, so that lists show it first and it has an id.
 */
export async function ensurePrimaryEmail(tx: Tx, user: { id: number; email: string; confirmedAt: Date | null }): Promise<void> {
  // ON CONFLICT DO NOTHING: two first reads at once both pass.
  await tx.email.createMany({ data: [{ userId: user.id, email: user.email, confirmedAt: user.confirmedAt }], skipDuplicates: true });
}

/** A new confirmation token: its digest for the row, and the event that mails the link. */
export async function sendConfirmation(tx: Tx, user: { id: number; name: string; username: string }, email: string): Promise<string> {
  const clear = newToken().replace(/^glpat-/, "");
  const now = new Date().toISOString();
  await enqueueEvent(tx, Subjects.emailConfirmation, {
    event_name: "email_confirmation",
    created_at: now,
    updated_at: now,
    user_id: user.id,
    name: user.name,
    username: user.username,
    email,
    confirmation_token: clear,
  });
  return tokenDigest(clear);
}

export function emailToProto(e: Email): EmailMsg {
  return { id: e.id, email: e.email, confirmedAt: e.confirmedAt ? e.confirmedAt.toISOString() : "" };
}
