import { AccessLevel } from "@quarry/gitlab";
import type { MergeSettings__Output as MergeSettings } from "@quarry/proto/types/identity/v1/MergeSettings";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { namespaceSummary } from "./namespace.ts";
import { apiUrl, avatarUrl, httpCloneUrl, orNull, sshCloneUrl, webUrl, type Urls } from "./urls.ts";
import { storageStatistics } from "./storage-statistics.ts";

/** GitLab's defaults, for a project message that carries no settings. */
const DEFAULT_MERGE_SETTINGS: MergeSettings = {
  mergeMethod: "merge",
  onlyAllowMergeIfPipelineSucceeds: false,
  allowMergeOnSkippedPipeline: false,
  onlyAllowMergeIfAllDiscussionsAreResolved: false,
  removeSourceBranchAfterMerge: true,
  squashOption: "default_off",
  resetApprovalsOnPush: true,
  mergeCommitTemplate: "",
  squashCommitTemplate: "",
  approvalsBeforeMerge: 0,
  autocloseReferencedIssues: true,
  mergeRequestsAuthorApproval: false,
  mergeRequestsDisableCommittersApproval: false,
};

const access = (level: number) => (level ? { access_level: level, notification_level: 3 } : null);

/** BasicProjectDetails (`simple=true` and embedded summaries). */
export function projectSimple(p: Project, urls: Urls) {
  const fullPath = p.pathWithNamespace;
  return {
    id: Number(p.id),
    description: orNull(p.description),
    name: p.name,
    name_with_namespace: p.nameWithNamespace,
    path: p.path,
    path_with_namespace: fullPath,
    created_at: p.createdAt,
    default_branch: p.defaultBranch,
    tag_list: p.topics,
    topics: p.topics,
    ssh_url_to_repo: sshCloneUrl(urls, fullPath),
    http_url_to_repo: httpCloneUrl(urls, fullPath),
    web_url: webUrl(urls, fullPath),
    readme_url: null as string | null,
    forks_count: 0,
    avatar_url: avatarUrl(urls, "project", p.id, p.avatar),
    star_count: p.starCount ?? 0,
    last_activity_at: p.lastActivityAt,
    namespace: namespaceSummary(p.namespace!, urls),
  };
}

export interface ProjectExtras {
  /** Whether the repository has no commits (single-project reads only). */
  emptyRepo?: boolean;
  /** statistics=true was asked for (shown to Reporters and up, as GitLab's read_statistics). */
  statistics?: boolean;
  /** Whether the caller is an administrator (repository_storage is theirs to see). */
  admin?: boolean;
  /** The storage the repository lives on (repo-service's GetRepositoryStorages), shown to administrators. */
  repositoryStorage?: string;
  /** license=true, or the star response (GitLab's documented star example carries license_url). */
  license?: boolean;
  /**
   * The project's runner registration token, shown only to callers who can admin the project
   * (GitLab's user_can_admin_project: Maintainer+ or administrator); the route fetches it then.
   */
  runnersToken?: string;
}

/**
 * GitLab's ProjectStatistics entity, from the figures identity-service keeps (refreshed
 * asynchronously from repo-service's and ci-service's measurements, as GitLab's worker does);
 * a project nothing was measured for yet shows zeros.
 */
function projectStatistics(p: Project) {
  const s = p.statistics;
  return {
    commit_count: Number(s?.commitCount ?? 0),
    ...storageStatistics(s),
    container_registry_size: Number(s?.containerRegistrySize ?? 0),
  };
}

/** The full Project entity (GitLab's API::Entities::Project), with `permissions` for the caller. */
export function projectFull(p: Project, urls: Urls, extras: ProjectExtras = {}) {
  const id = Number(p.id);
  const ms = p.mergeSettings ?? DEFAULT_MERGE_SETTINGS;
  const simple = projectSimple(p, urls);
  return {
    ...simple,
    readme_url: extras.emptyRepo === false ? webUrl(urls, `${p.pathWithNamespace}/-/blob/${p.defaultBranch}/README.md`) : null,
    container_registry_image_prefix: `${new URL(urls.base).host}/${p.pathWithNamespace}`,
    _links: {
      self: apiUrl(urls, `projects/${id}`),
      issues: apiUrl(urls, `projects/${id}/issues`),
      merge_requests: apiUrl(urls, `projects/${id}/merge_requests`),
      repo_branches: apiUrl(urls, `projects/${id}/repository/branches`),
      labels: apiUrl(urls, `projects/${id}/labels`),
      events: apiUrl(urls, `projects/${id}/events`),
      members: apiUrl(urls, `projects/${id}/members`),
      cluster_agents: apiUrl(urls, `projects/${id}/cluster_agents`),
    },
    packages_enabled: false,
    empty_repo: extras.emptyRepo ?? false,
    archived: p.archived,
    visibility: p.visibility,
    ...(p.owner
      ? {
          owner: {
            id: Number(p.owner.id),
            username: p.owner.username,
            name: p.owner.name,
            state: p.owner.state,
            locked: false,
            avatar_url: avatarUrl(urls, "user", p.owner.id, p.owner.avatar),
            web_url: webUrl(urls, p.owner.username),
            created_at: p.owner.createdAt,
          },
        }
      : {}),
    resolve_outdated_diff_discussions: false,
    container_registry_enabled: false,
    container_registry_access_level: "disabled",
    security_and_compliance_access_level: "private",
    container_expiration_policy: null,
    repository_object_format: "sha1",
    issues_enabled: true,
    merge_requests_enabled: true,
    wiki_enabled: true,
    jobs_enabled: true,
    snippets_enabled: true,
    // Project#can_create_merge_request_in?: Developer or above (the caller's direct or inherited level).
    can_create_merge_request_in: Math.max(p.projectAccessLevel, p.groupAccessLevel) >= 30,
    issues_access_level: "enabled",
    repository_access_level: "enabled",
    merge_requests_access_level: "enabled",
    forking_access_level: "disabled",
    wiki_access_level: "enabled",
    builds_access_level: "enabled",
    snippets_access_level: "enabled",
    pages_access_level: "disabled",
    analytics_access_level: "disabled",
    releases_access_level: "disabled",
    environments_access_level: "enabled",
    emails_disabled: false,
    emails_enabled: true,
    shared_runners_enabled: true,
    lfs_enabled: false,
    creator_id: Number(p.creatorId) || null,
    import_url: null,
    import_type: null,
    import_status: "none",
    import_error: null,
    open_issues_count: 0,
    description_html: p.description ? `<p dir="auto">${escapeHtml(p.description)}</p>` : "",
    updated_at: p.updatedAt,
    ci_default_git_depth: 20,
    ci_forward_deployment_enabled: true,
    ci_job_token_scope_enabled: false,
    ci_separated_caches: true,
    ci_allow_fork_pipelines_to_run_in_parent_project: true,
    build_git_strategy: "fetch",
    keep_latest_artifact: true,
    restrict_user_defined_variables: false,
    ...(extras.runnersToken ? { runners_token: extras.runnersToken } : {}),
    runner_token_expiration_interval: null,
    group_runners_enabled: true,
    auto_cancel_pending_pipelines: "enabled",
    build_timeout: 3600,
    auto_devops_enabled: false,
    auto_devops_deploy_strategy: "continuous",
    ci_config_path: orNull(p.ciConfigPath),
    public_jobs: true,
    shared_with_groups: [],
    only_allow_merge_if_pipeline_succeeds: ms.onlyAllowMergeIfPipelineSucceeds,
    // GitLab's column has no default: null until someone turns it on (false is stored as unset).
    allow_merge_on_skipped_pipeline: ms.allowMergeOnSkippedPipeline || null,
    request_access_enabled: p.requestAccessEnabled,
    only_allow_merge_if_all_discussions_are_resolved: ms.onlyAllowMergeIfAllDiscussionsAreResolved,
    remove_source_branch_after_merge: ms.removeSourceBranchAfterMerge,
    printing_merge_request_link_enabled: true,
    merge_method: ms.mergeMethod,
    squash_option: ms.squashOption,
    enforce_auth_checks_on_uploads: p.enforceAuthChecksOnUploads,
    suggestion_commit_message: null,
    merge_commit_template: orNull(ms.mergeCommitTemplate),
    squash_commit_template: orNull(ms.squashCommitTemplate),
    issue_branch_template: null,
    autoclose_referenced_issues: ms.autocloseReferencedIssues,
    // EE exposes it where merge request approvals exist, as they do here.
    approvals_before_merge: ms.approvalsBeforeMerge,
    mirror: false,
    ...(extras.statistics && (extras.admin || Math.max(p.projectAccessLevel, p.groupAccessLevel) >= AccessLevel.REPORTER)
      ? { statistics: projectStatistics(p) }
      : {}),
    ...(extras.admin ? { repository_storage: extras.repositoryStorage ?? "default" } : {}),
    ...(extras.license ? { license_url: null, license: null } : {}),
    permissions: {
      project_access: access(p.projectAccessLevel),
      group_access: access(p.groupAccessLevel),
    },
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
