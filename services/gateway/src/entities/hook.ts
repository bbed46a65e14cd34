import type { Hook__Output as Hook } from "@quarry/proto/types/hook/v1/Hook";

const nullIfEmpty = (s: string) => (s === "" ? null : s);

/**
 * A project or group webhook (GitLab's API::Entities::ProjectHook / GroupHook). Secrets are never
 * shown: no token, url_variables and custom_headers list only their keys.
 */
export function hookEntity(h: Hook) {
  const common = {
    id: Number(h.id),
    url: h.url,
    name: h.name,
    description: h.description,
    created_at: h.createdAt,
    push_events: h.pushEvents,
    tag_push_events: h.tagPushEvents,
    merge_requests_events: h.mergeRequestsEvents,
    repository_update_events: h.repositoryUpdateEvents,
    enable_ssl_verification: h.enableSslVerification,
    alert_status: h.alertStatus,
    disabled_until: nullIfEmpty(h.disabledUntil),
    url_variables: h.urlVariableKeys.map((key) => ({ key })),
    push_events_branch_filter: nullIfEmpty(h.pushEventsBranchFilter),
    branch_filter_strategy: h.branchFilterStrategy,
    custom_webhook_template: nullIfEmpty(h.customWebhookTemplate),
    custom_headers: h.customHeaderKeys.map((key) => ({ key })),
  };
  const events = {
    issues_events: h.issuesEvents,
    confidential_issues_events: h.confidentialIssuesEvents,
    note_events: h.noteEvents,
    confidential_note_events: h.confidentialNoteEvents,
    pipeline_events: h.pipelineEvents,
    wiki_page_events: h.wikiPageEvents,
    job_events: h.jobEvents,
    deployment_events: h.deploymentEvents,
    feature_flag_events: h.featureFlagEvents,
    releases_events: h.releasesEvents,
    milestone_events: h.milestoneEvents,
    resource_access_token_events: h.resourceAccessTokenEvents,
    emoji_events: h.emojiEvents,
  };
  if (Number(h.groupId) > 0) {
    return {
      ...common,
      group_id: Number(h.groupId),
      ...events,
      subgroup_events: h.subgroupEvents,
      member_events: h.memberEvents,
      project_events: h.projectEvents,
    };
  }
  return { ...common, project_id: Number(h.projectId), ...events };
}
