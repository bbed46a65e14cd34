import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { VerifiedDomain__Output as VerifiedDomain } from "@quarry/proto/types/identity/v1/VerifiedDomain";
import type { Urls } from "./urls.ts";
import { orNull } from "./urls.ts";
import { userAdmin } from "./user.ts";

/**
 * GitLab's enterprise user: the administrator view plus scim_identities (the user's identities of
 * provider "scim", GitLab's group SCIM identities; Quarry has no SCIM, so normally none).
 */
export function enterpriseUser(u: User, urls: Urls, createdBy?: User | null) {
  return {
    ...userAdmin(u, urls, createdBy),
    scim_identities: u.identities
      .filter((i) => i.provider === "scim")
      .map((i) => ({ extern_uid: i.externUid, group_id: Number(u.enterpriseGroupId) || null, active: true })),
  };
}

/** Quarry's verified domain of a top-level group (an extension: GitLab.com verifies domains in its UI). */
export function verifiedDomain(d: VerifiedDomain) {
  return {
    domain: d.domain,
    group_id: Number(d.groupId),
    verified: d.verified,
    verified_at: orNull(d.verifiedAt),
    verification_code: d.verificationCode,
    verification_record: d.verificationRecord,
    enterprise_users_count: d.enterpriseUsersCount,
    created_at: d.createdAt,
  };
}
