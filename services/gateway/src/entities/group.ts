import { AccessLevel } from "@quarry/gitlab";
import type { Group__Output as Group } from "@quarry/proto/types/identity/v1/Group";
import { storageStatistics } from "./storage-statistics.ts";
import { avatarUrl, orNull, webUrl, type Urls } from "./urls.ts";

type Statistics = Group["statistics"];

/** GitLab's Namespace::RootStorageStatistics entity, over the whole hierarchy of a top-level group. */
function rootStorageStatistics(s: Statistics) {
  const n = (v: number | string | undefined | null) => Number(v ?? 0);
  return {
    build_artifacts_size: n(s?.jobArtifactsSize),
    container_registry_size: n(s?.containerRegistrySize),
    registry_size_estimated: false,
    dependency_proxy_size: 0,
    lfs_objects_size: n(s?.lfsObjectsSize),
    packages_size: n(s?.packagesSize),
    pipeline_artifacts_size: n(s?.pipelineArtifactsSize),
    repository_size: n(s?.repositorySize),
    snippets_size: n(s?.snippetsSize),
    storage_size: n(s?.storageSize),
    uploads_size: n(s?.uploadsSize),
    wiki_size: n(s?.wikiSize),
  };
}

/**
 * A group as listed (GitLab's API::Entities::Group). `statistics` (administrators asked for
 * statistics=true) adds `statistics` and, for top-level groups, `root_storage_statistics`.
 */
export function groupListItem(g: Group, urls: Urls, opts: { statistics?: boolean } = {}) {
  const topLevel = !Number(g.parentId);
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
    // No group can be archived in Quarry yet.
    archived: false,
    ...(opts.statistics ? { statistics: storageStatistics(g.statistics) } : {}),
    ...(opts.statistics && topLevel ? { root_storage_statistics: rootStorageStatistics(g.rootStorageStatistics) } : {}),
  };
}

/**
 * GET /groups/:id — adds the detail fields; `projects` are project summaries built by the caller.
 * `canAdmin` (GitLab's user_can_admin_group: Owners and administrators) shows `runners_token`
 * (when given) and `enabled_git_access_protocol`.
 */
export function groupDetail(
  g: Group,
  urls: Urls,
  projects: unknown[] | undefined,
  admin: { canAdmin?: boolean; runnersToken?: string; repositoryStorage?: string } = {},
) {
  const isTopLevel = !Number(g.parentId);
  return {
    ...groupListItem(g, urls),
    // The group wiki's storage (repo-service's record; `default` until the wiki is placed).
    repository_storage: admin.repositoryStorage ?? "default",
    file_template_project_id: null,
    ip_restriction_ranges: null,
    math_rendering_limits_enabled: true,
    lock_math_rendering_limits_enabled: false,
    shared_with_groups: [],
    ...(isTopLevel ? { prevent_sharing_groups_outside_hierarchy: false } : {}),
    ...(admin.canAdmin && admin.runnersToken ? { runners_token: admin.runnersToken } : {}),
    ...(admin.canAdmin ? { enabled_git_access_protocol: "all" } : {}),
    ...(projects ? { projects, shared_projects: [] } : {}),
  };
}
