import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { UserMembership__Output as UserMembership } from "@quarry/proto/types/identity/v1/UserMembership";
import { avatarUrl, orNull, webUrl, type Urls } from "./urls.ts";

/** UserBasic: what lists, members and authors show. */
export function userBasic(u: User, urls: Urls) {
  return {
    id: Number(u.id),
    username: u.username,
    name: u.name,
    state: u.state,
    locked: false,
    avatar_url: avatarUrl(urls, "user", u.id, u.avatar),
    web_url: webUrl(urls, u.username),
  };
}

/** User: the single-user view everyone signed in may read. */
export function userPublicProfile(u: User, urls: Urls) {
  return {
    ...userBasic(u, urls),
    created_at: u.createdAt,
    bio: u.bio,
    location: u.location,
    public_email: orNull(u.publicEmail),
    linkedin: "",
    twitter: "",
    discord: "",
    github: "",
    website_url: u.websiteUrl,
    organization: u.organization,
    job_title: u.jobTitle,
    pronouns: orNull(u.pronouns),
    bot: u.bot,
    work_information: u.organization ? (u.jobTitle ? `${u.jobTitle} at ${u.organization}` : u.organization) : orNull(u.jobTitle),
    followers: 0,
    following: 0,
    is_followed: false,
    local_time: null,
  };
}

/** A link to an external authentication provider (saml_provider_id is a higher-tier field, always null here). */
function identity(i: User["identities"][number]) {
  return { provider: i.provider, extern_uid: i.externUid, saml_provider_id: null };
}

/** UserPublic: GET /user for the caller themself. */
export function userSelf(u: User, urls: Urls) {
  return {
    ...userPublicProfile(u, urls),
    last_sign_in_at: orNull(u.lastSignInAt),
    confirmed_at: orNull(u.confirmedAt),
    last_activity_on: orNull(u.lastActivityOn),
    email: u.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: u.projectsLimit,
    current_sign_in_at: orNull(u.lastSignInAt),
    identities: u.identities.map(identity),
    can_create_group: u.canCreateGroup,
    can_create_project: u.projectsLimit > 0,
    two_factor_enabled: u.twoFactorEnabled,
    external: u.external,
    private_profile: u.privateProfile,
    commit_email: u.email,
    preferred_language: "en",
    ...(u.isAdmin ? { is_admin: true, note: orNull(u.note), namespace_id: Number(u.namespaceId) } : {}),
  };
}

/** UserWithAdmin: what administrators see. */
export function userAdmin(u: User, urls: Urls, createdBy?: User | null) {
  return {
    ...userSelf(u, urls),
    is_admin: u.isAdmin,
    note: orNull(u.note),
    namespace_id: Number(u.namespaceId),
    current_sign_in_ip: null,
    last_sign_in_ip: null,
    created_by: createdBy ? userBasic(createdBy, urls) : null,
    email_reset_offered_at: null,
    // GitLab EE's administrator fields of enterprise users and provisioned accounts.
    provisioned_by_group_id: Number(u.provisionedByGroupId) || null,
    enterprise_group_id: Number(u.enterpriseGroupId) || null,
    enterprise_group_associated_at: orNull(u.enterpriseGroupAssociatedAt),
  };
}

/** GitLab's Entities::Membership: a user's membership of a project or group (GET /users/:id/memberships). */
export function membership(m: UserMembership) {
  return { source_id: Number(m.sourceId), source_name: m.sourceName, source_type: m.sourceType, access_level: m.accessLevel };
}
