import { AccessLevel } from "@quarry/gitlab";
import type { Group__Output as Group } from "@quarry/proto/types/identity/v1/Group";
import { avatarUrl, orNull, webUrl, type Urls } from "./urls.ts";

/** A group as listed (GitLab's API::Entities::Group). */
export function groupListItem(g: Group, urls: Urls) {
  return {
    id: Number(g.id),
    web_url: webUrl(urls, `groups/${g.fullPath}`),
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: g.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: g.projectCreationLevel,
    auto_devops_enabled: null,
    subgroup_creation_level: g.subgroupCreationLevel,
    emails_disabled: false,
    emails_enabled: true,
    mentions_disabled: null,
    lfs_enabled: true,
    default_branch: orNull(g.defaultBranch),
    default_branch_protection: 2,
    default_branch_protection_defaults: {
      allowed_to_push: [{ access_level: AccessLevel.MAINTAINER }],
      allow_force_push: false,
      allowed_to_merge: [{ access_level: AccessLevel.MAINTAINER }],
    },
    avatar_url: avatarUrl(urls, "group", g.id, g.avatar),
    request_access_enabled: g.requestAccessEnabled,
    full_name: g.fullName,
    full_path: g.fullPath,
    created_at: g.createdAt,
    parent_id: Number(g.parentId) || null,
    organization_id: 1,
    shared_runners_setting: "enabled",
    ldap_cn: null,
    ldap_access: null,
    wiki_access_level: "enabled",
    marked_for_deletion_on: null,
  };
}

/** GET /groups/:id — adds the detail fields; `projects` are project summaries built by the caller. */
export function groupDetail(g: Group, urls: Urls, projects: unknown[] | undefined) {
  const isTopLevel = !Number(g.parentId);
  return {
    ...groupListItem(g, urls),
    repository_storage: "default",
    file_template_project_id: null,
    ip_restriction_ranges: null,
    math_rendering_limits_enabled: true,
    lock_math_rendering_limits_enabled: false,
    shared_with_groups: [],
    ...(isTopLevel ? { prevent_sharing_groups_outside_hierarchy: false } : {}),
    ...(g.callerAccessLevel >= AccessLevel.OWNER ? { enabled_git_access_protocol: "all" } : {}),
    ...(projects ? { projects, shared_projects: [] } : {}),
  };
}
