import type { Member__Output as Member } from "@quarry/proto/types/identity/v1/Member";
import { userBasic } from "./user.ts";
import { orNull, type Urls } from "./urls.ts";

/** A project or group member (GitLab's API::Entities::Member). */
export function member(m: Member, urls: Urls, opts: { showEmail: boolean }) {
  const u = m.user!;
  return {
    ...userBasic(u, urls),
    access_level: m.accessLevel,
    created_at: m.createdAt,
    created_by: m.createdBy ? userBasic(m.createdBy, urls) : null,
    expires_at: orNull(m.expiresAt),
    group_saml_identity: null,
    membership_state: "active",
    public_email: orNull(u.publicEmail),
    ...(opts.showEmail ? { email: u.email } : {}),
  };
}
