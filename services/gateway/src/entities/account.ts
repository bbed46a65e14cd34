import type { Email__Output as Email } from "@quarry/proto/types/identity/v1/Email";
import type { ServiceAccount__Output as ServiceAccount } from "@quarry/proto/types/identity/v1/ServiceAccount";
import { orNull } from "./urls.ts";

/** GitLab's service account entity: id, username, name, email, and unconfirmed_email while a custom e-mail awaits confirmation. */
export function serviceAccount(a: ServiceAccount) {
  return {
    id: Number(a.id),
    username: a.username,
    name: a.name,
    email: a.email,
    ...(a.unconfirmedEmail ? { unconfirmed_email: a.unconfirmedEmail } : {}),
  };
}

/** A list item of GET /service_accounts: id, username, name. */
export function serviceAccountBasic(a: ServiceAccount) {
  return { id: Number(a.id), username: a.username, name: a.name };
}

/** A list item of GET /groups/:id/service_accounts: id, username, name, email. */
export function groupServiceAccount(a: ServiceAccount) {
  return { ...serviceAccountBasic(a), email: a.email };
}

/** GitLab's Entities::Email. */
export function email(e: Email) {
  return { id: Number(e.id), email: e.email, confirmed_at: orNull(e.confirmedAt) };
}
