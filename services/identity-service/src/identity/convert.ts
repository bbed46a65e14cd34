// Prisma rows → protobuf messages. Nothing here decides access; callers pass levels in.
import type { Group } from "@quarry/proto/types/identity/v1/Group";
import type { Member as MemberMsg } from "@quarry/proto/types/identity/v1/Member";
import type { PersonalAccessToken as TokenMsg } from "@quarry/proto/types/identity/v1/PersonalAccessToken";
import type { Project as ProjectMsg } from "@quarry/proto/types/identity/v1/Project";
import type { User as UserMsg } from "@quarry/proto/types/identity/v1/User";
import type { Member, Namespace, PersonalAccessToken, Project, ProjectStatistics, User } from "../generated/prisma/client.ts";
import { createHash } from "node:crypto";
import { mergeSettingsToProto } from "./merge-settings.ts";
import { statisticsToProto } from "./project-statistics.ts";

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : "");
const day = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : "");

export function userToProto(u: User & { namespace?: { id: number } | null; identities?: { provider: string; externUid: string }[] }): UserMsg {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    email: u.email,
    state: u.state,
    isAdmin: u.isAdmin,
    bio: u.bio,
    location: u.location,
    publicEmail: u.publicEmail,
    websiteUrl: u.websiteUrl,
    organization: u.organization,
    jobTitle: u.jobTitle,
    namespaceId: u.namespace?.id ?? 0,
    createdAt: iso(u.createdAt),
    createdById: u.createdById ?? 0,
    bot: u.bot,
    lastSignInAt: iso(u.lastSignInAt),
    confirmedAt: iso(u.confirmedAt),
    lastActivityOn: day(u.lastActivityOn),
    canCreateGroup: u.canCreateGroup,
    projectsLimit: u.projectsLimit,
    external: u.external,
    privateProfile: u.privateProfile,
    pronouns: u.pronouns,
    note: u.note,
    identities: (u.identities ?? []).map((i) => ({ provider: i.provider, externUid: i.externUid })),
    avatar: u.avatar ?? "",
    twoFactorEnabled: u.twoFactorEnabled,
    userType: u.userType,
    enterpriseGroupId: u.enterpriseGroupId ?? 0,
    enterpriseGroupAssociatedAt: iso(u.enterpriseGroupAssociatedAt),
    provisionedByGroupId: u.provisionedByGroupId ?? 0,
  };
}

export function groupToProto(ns: Namespace, callerAccessLevel: number): Group {
  return {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    description: ns.description,
    visibility: ns.visibility,
    fullName: ns.fullName,
    fullPath: ns.fullPath,
    parentId: ns.parentId ?? 0,
    createdAt: iso(ns.createdAt),
    requestAccessEnabled: ns.requestAccessEnabled,
    projectCreationLevel: ns.projectCreationLevel,
    subgroupCreationLevel: ns.subgroupCreationLevel,
    callerAccessLevel,
    defaultBranch: ns.defaultBranch,
    avatar: ns.avatar ?? "",
  };
}

/** GitLab's hashed storage path: @hashed/<h[0..2]>/<h[2..4]>/<sha256(project id)>.git */
export function diskPathFor(projectId: number): string {
  const h = createHash("sha256").update(String(projectId)).digest("hex");
  return `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`;
}

export type ProjectRow = Project & { namespace: Namespace & { owner?: User | null }; statistics?: ProjectStatistics | null };

export function projectToProto(p: ProjectRow, levels: { projectLevel: number; groupLevel: number }): ProjectMsg {
  const ns = p.namespace;
  return {
    id: p.id,
    name: p.name,
    path: p.path,
    description: p.description,
    visibility: p.visibility,
    defaultBranch: p.defaultBranch,
    namespace: {
      id: ns.id,
      name: ns.name,
      path: ns.path,
      kind: ns.kind,
      fullPath: ns.fullPath,
      parentId: ns.parentId ?? 0,
      ownerId: ns.ownerId ?? 0,
      // GitLab's namespace avatar_url: a group's own, a personal namespace's owner's.
      avatar: (ns.kind === "user" ? ns.owner?.avatar : ns.avatar) ?? "",
    },
    pathWithNamespace: `${ns.fullPath}/${p.path}`,
    nameWithNamespace: `${ns.fullName} / ${p.name}`,
    creatorId: p.creatorId ?? 0,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
    lastActivityAt: iso(p.lastActivityAt),
    archived: p.archived,
    projectAccessLevel: levels.projectLevel,
    groupAccessLevel: levels.groupLevel,
    owner: ns.kind === "user" && ns.owner ? userToProto(ns.owner) : null,
    topics: p.topics,
    diskPath: diskPathFor(p.id),
    requestAccessEnabled: p.requestAccessEnabled,
    ciConfigPath: p.ciConfigPath,
    avatar: p.avatar ?? "",
    mergeSettings: mergeSettingsToProto(p),
    starCount: p.starCount,
    enforceAuthChecksOnUploads: p.enforceAuthChecksOnUploads,
    statistics: statisticsToProto(p.statistics),
  };
}

export function tokenToProto(t: PersonalAccessToken, clearToken = ""): TokenMsg {
  const expired = t.expiresAt !== null && t.expiresAt.getTime() < Date.parse(new Date().toISOString().slice(0, 10));
  return {
    id: t.id,
    name: t.name,
    revoked: t.revoked,
    createdAt: iso(t.createdAt),
    description: t.description,
    scopes: t.scopes,
    userId: t.userId,
    lastUsedAt: iso(t.lastUsedAt),
    active: !t.revoked && !expired,
    expiresAt: day(t.expiresAt),
    token: clearToken,
    impersonation: t.impersonation,
  };
}

export function memberToProto(m: Member & { user: User }, createdBy: User | null, inheritedFromGroupId = 0): MemberMsg {
  return {
    user: userToProto(m.user),
    accessLevel: m.accessLevel,
    createdAt: iso(m.createdAt),
    expiresAt: day(m.expiresAt),
    createdBy: createdBy ? userToProto(createdBy) : null,
    inheritedFromGroupId,
  };
}
