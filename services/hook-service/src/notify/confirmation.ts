// Confirmation instructions (Devise's confirmation_instructions mail): the link that confirms an
// e-mail address a user added, or a service account's custom e-mail.
import type { EmailConfirmationEvent } from "@quarry/bus";
import { type Deps, deliver, type Notifier } from "./common.ts";
import type { Mail } from "./issue-mail.ts";

/** The mail for one address; `link` is absolute. */
export function confirmationMail(e: { name: string; email: string }, link: string): Mail {
  return {
    subject: "Confirmation instructions",
    text: `Welcome, ${e.name}!\n\nYou can confirm your email (${e.email}) through the link below:\n\n${link}\n`,
    headers: {},
  };
}

/** Mails the confirmation link to the address itself (not to the user's notification e-mail). */
export async function notifyEmailConfirmation(deps: Deps, n: Notifier, e: EmailConfirmationEvent): Promise<number> {
  if (!e.email || !e.confirmation_token) return 0;
  const link = `${deps.settings.instanceUrl}/users/confirmation?confirmation_token=${encodeURIComponent(e.confirmation_token)}`;
  const sent = await deliver(deps, n, e.event_id, "email_confirmation", { userId: Number(e.user_id), email: e.email, reason: null }, confirmationMail(e, link));
  return sent ? 1 : 0;
}
