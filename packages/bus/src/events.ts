// Domain events shared by services. Payloads follow GitLab's system hook / push webhook
// shapes so hook-service can forward them with minimal mapping.
import type { Visibility } from "@quarry/gitlab";

export const Subjects = {
  userCreate: "quarry.identity.user_create",
  userDestroy: "quarry.identity.user_destroy",
  /** A token was revoked: gateways drop it from their authentication caches. */
  tokenRevoke: "quarry.identity.token_revoke",
  projectCreate: "quarry.identity.project_create",
  projectDestroy: "quarry.identity.project_destroy",
  groupCreate: "quarry.identity.group_create",
  /** A group was deleted (one event per group, its subgroups included): services drop what they keep for it. */
  groupDestroy: "quarry.identity.group_destroy",
  /** Group memberships (GitLab's group member webhook events; project memberships publish none, as in GitLab). */
  userAddToGroup: "quarry.identity.user_add_to_group",
  userUpdateForGroup: "quarry.identity.user_update_for_group",
  userRemoveFromGroup: "quarry.identity.user_remove_from_group",
  push: "quarry.repo.push",
  tagPush: "quarry.repo.tag_push",
  /** Work for mirror-service: push one mirror (scheduled by the sync endpoint or a push). */
  mirrorSync: "quarry.mirror.sync",
  /** An emoji was awarded or revoked (collab-service): GitLab's emoji webhook, for hook-service. */
  emoji: "quarry.collab.emoji",
  /** A comment was created or edited (collab-service): GitLab's note webhook, for hook-service. */
  note: "quarry.collab.note",
  /** An issue was opened, closed, reopened or updated (collab-service): GitLab's issue webhook, for hook-service. */
  issue: "quarry.collab.issue",
  /** A merge request was opened, closed, reopened, updated (pushes included), approved, unapproved or merged (collab-service): GitLab's merge request webhook, for hook-service; ci-service starts merge request pipelines from it. */
  mergeRequest: "quarry.collab.merge_request",
  /** A pipeline was created or changed status (ci-service): GitLab's pipeline webhook, for hook-service; collab-service follows merge requests' head pipelines with it. */
  pipeline: "quarry.ci.pipeline",
  /** A job changed status (ci-service): GitLab's job webhook, for hook-service. */
  job: "quarry.ci.job",
  /** A deployment changed status (ci-service): GitLab's deployment webhook, for hook-service. */
  deployment: "quarry.ci.deployment",
  /** A wiki page was created, updated or deleted through the API or by a git push (repo-service): GitLab's wiki page webhook, for hook-service. */
  wikiPage: "quarry.repo.wiki_page",
  /** What GitLab mails without executing hooks (auto-merge set, issues due); hook-service mails it. */
  notification: "quarry.collab.notification",
  /** A project's path or namespace changed (GitLab's project_rename / project_transfer system hooks). */
  projectRename: "quarry.identity.project_rename",
  /** A project's repository was measured after a write (repo-service): identity-service keeps it in project_statistics. */
  repositoryStatistics: "quarry.repo.statistics",
  /** A project's job artifacts were totalled after an upload or removal (ci-service): identity-service keeps it in project_statistics. */
  artifactsStatistics: "quarry.ci.artifacts_statistics",
  /** An e-mail address awaits confirmation (a secondary address, or a service account's custom e-mail): hook-service mails the link. Outside quarry.identity.> so that the clear token is not recorded with the webhook events. */
  emailConfirmation: "quarry.mail.email_confirmation",
  /** The instance settings changed (PUT /application/settings): every service applying one takes the new snapshot. Outside quarry.identity.> so hook-service does not record it as a webhook event. */
  applicationSettings: "quarry.settings.application",
  /**
   * An audited action that has no domain event of its own (project memberships, tokens, …): the
   * audit record as the publisher built it, for activity-service. Outside quarry.identity.> and
   * the other webhook subjects, so hook-service never sees it.
   */
  audit: "quarry.audit.event",
  /**
   * A user was deleted (identity-service): what they contributed elsewhere moves to the Ghost User,
   * or is deleted with `hard_delete` (GitLab's Users::MigrateRecordsToGhostUserService). Outside
   * quarry.identity.> so that hook-service and the audit recorder do not take it for a system hook event.
   */
  userContributions: "quarry.accounts.user_contributions",
  /**
   * Something that can change an Authorize answer changed (identity-service): a project, a group,
   * a membership or a user's state or admin flag. Gateways evict their authorization caches with
   * it. Outside quarry.identity.> so that hook-service and the audit recorder never see it.
   */
  accessChanged: "quarry.access.changed",
} as const;

export type Subject = (typeof Subjects)[keyof typeof Subjects];

/**
 * Who did an audited action and from where (the gateway's Actor): activity-service records audit
 * events with it; hook-service strips it from every webhook payload (GitLab's carry none).
 */
export interface EventActor {
  /** The acting user (0: no user, e.g. start-up's root). */
  user_id: number;
  /** The client's address as the gateway saw it ("" when unknown). */
  ip_address: string;
}

/** Fields every domain event carries. Timestamps are ISO-8601 strings (JSON transport). */
interface DomainEventBase {
  /** UUID; also a good `msgId` for publish-side dedupe. */
  event_id: string;
  created_at: string;
  updated_at: string;
  /** Who did it (for audit events; never forwarded to webhooks). */
  actor?: EventActor;
}

export interface UserCreateEvent extends DomainEventBase {
  event_name: "user_create";
  user_id: number;
  name: string;
  username: string;
  email: string;
}

export interface UserDestroyEvent extends Omit<UserCreateEvent, "event_name"> {
  event_name: "user_destroy";
}

export interface TokenRevokeEvent {
  event_id: string;
  event_name: "token_revoke";
  token_id: number;
  user_id: number;
}

export interface ProjectOwner {
  name: string;
  email: string;
}

interface ProjectEventFields extends DomainEventBase {
  project_id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  project_visibility: Visibility;
  owner_name: string;
  owner_email: string;
  owners: ProjectOwner[];
}

export interface ProjectCreateEvent extends ProjectEventFields {
  event_name: "project_create";
}

export interface ProjectDestroyEvent extends ProjectEventFields {
  event_name: "project_destroy";
}

export interface GroupCreateEvent extends DomainEventBase {
  event_name: "group_create";
  group_id: number;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
}

/** GitLab's system hook group_destroy payload, with the parent as group_create carries it. */
export interface GroupDestroyEvent extends DomainEventBase {
  event_name: "group_destroy";
  group_id: number;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
}

/**
 * A group membership was added, changed (access level or expiry) or removed: GitLab's
 * Gitlab::HookData::GroupMemberBuilder payload, sent as is to group hooks with member events.
 */
export interface GroupMemberEvent {
  event_id: string;
  event_name: "user_add_to_group" | "user_update_for_group" | "user_remove_from_group";
  /** The membership's timestamps, `YYYY-MM-DDTHH:MM:SSZ` (Ruby's xmlschema). */
  created_at: string;
  updated_at: string;
  group_name: string;
  group_path: string;
  group_id: number;
  user_username: string;
  user_name: string;
  /** GitLab's User#webhook_email: the public email, else "[REDACTED]". */
  user_email: string;
  user_id: number;
  /** The level's name ("Developer"). */
  group_access: string;
  /** Midnight UTC of the expiry date, or null. */
  expires_at: string | null;
  /** Always null (no subscription plans). */
  group_plan: null;
  /** Who did it (for audit events; never forwarded to webhooks). */
  actor?: EventActor;
}

export interface PushEventProject {
  id: number;
  name: string;
  description: string | null;
  web_url: string;
  avatar_url: string | null;
  git_ssh_url: string;
  git_http_url: string;
  namespace: string;
  visibility_level: number;
  path_with_namespace: string;
  default_branch: string | null;
  ci_config_path: string | null;
  homepage: string;
  url: string;
  ssh_url: string;
  http_url: string;
}

export interface PushEventCommit {
  id: string;
  message: string;
  title: string;
  timestamp: string;
  url: string;
  author: { name: string; email: string };
  added: string[];
  modified: string[];
  removed: string[];
}

export interface PushEventRepository {
  name: string;
  url: string;
  description: string | null;
  homepage: string;
  git_http_url: string;
  git_ssh_url: string;
  visibility_level: number;
}

/** GitLab push / tag push webhook payload (published on `quarry.repo.push` / `quarry.repo.tag_push`). */
export interface PushEvent {
  event_id: string;
  object_kind: "push" | "tag_push";
  event_name: "push" | "tag_push";
  before: string;
  after: string;
  ref: string;
  ref_protected: boolean;
  checkout_sha: string | null;
  message: string | null;
  user_id: number;
  user_name: string;
  user_username: string;
  user_email: string | null;
  user_avatar: string | null;
  project_id: number;
  project: PushEventProject;
  commits: PushEventCommit[];
  total_commits_count: number;
  push_options: Record<string, unknown>;
  repository: PushEventRepository;
}

/** A scheduled push-mirror sync (work message; the mirror row in mirror-service is the truth). */
export interface MirrorSyncRequest {
  mirror_id: number;
}

/** GitLab's AwardEmoji#hook_attrs (Gitlab::HookData::EmojiBuilder) with the data builder's awarded_on_url. */
export interface EmojiEventAttributes {
  user_id: number;
  /** `YYYY-MM-DD HH:MM:SS UTC`, as GitLab's hook data shows times. */
  created_at: string;
  id: number;
  name: string;
  awardable_type: string;
  awardable_id: number;
  updated_at: string;
  /** The awardable's web page, as a path below the external URL (`/group/project/-/issues/1#note_2`). */
  awarded_on_url: string;
}

/**
 * An emoji awarded or revoked: GitLab's Gitlab::DataBuilder::Emoji payload less `user` and
 * `project`, which hook-service adds from identity-service (User#hook_attrs, Project#hook_attrs).
 * Web URLs (`object_attributes.awarded_on_url`, `issue.url`, `note.url`) are paths below the
 * external URL, which only hook-service knows; it prefixes them.
 */
export interface EmojiEvent {
  event_id: string;
  event_name: "emoji";
  object_kind: "emoji";
  /** "award" (AwardEmojis::AddService) or "revoke" (AwardEmojis::DestroyService). */
  event_type: "award" | "revoke";
  /** The user the award belongs to (GitLab's services run as them; for a revoke too). */
  user_id: number;
  project_id: number;
  object_attributes: EmojiEventAttributes;
  /** The note awarded (Note#hook_attrs), when the awardable is a note. */
  note?: Record<string, unknown>;
  /** The issue awarded, or the awarded note's issue (Issue#hook_attrs). */
  issue?: Record<string, unknown>;
  /** The project snippet awarded, or the awarded note's snippet (Snippet#hook_attrs). */
  snippet?: Record<string, unknown>;
  /** The merge request awarded, or the awarded note's merge request (MergeRequest#hook_attrs). */
  merge_request?: Record<string, unknown>;
}

/**
 * A comment created or edited: GitLab's Gitlab::DataBuilder::Note payload less `user`, `project`
 * and `repository`, which hook-service adds from identity-service. Web URLs are paths below the
 * external URL, as in EmojiEvent. System notes publish none (GitLab's Notes::PostProcessService).
 */
export interface NoteEvent {
  event_id: string;
  event_name: "note";
  object_kind: "note";
  /** "confidential_note" for an internal note or any note on a confidential issue (Note#confidential?(include_noteable: true)). */
  event_type: "note" | "confidential_note";
  /** The note's author (GitLab builds the payload with note.author, for edits too). */
  user_id: number;
  project_id: number;
  /** Note#hook_attrs with `url` and `action` ("create" or "update"). */
  object_attributes: Record<string, unknown> & { action: "create" | "update"; url: string };
  /** The commented issue (Issue#hook_attrs). */
  issue?: Record<string, unknown>;
  /** The commented project snippet (Snippet#hook_attrs). */
  snippet?: Record<string, unknown>;
  /** The commented merge request (MergeRequest#hook_attrs, Gitlab::HookData::MergeRequestBuilder). */
  merge_request?: Record<string, unknown>;
}

/** GitLab's `{previous, current}` of one changed field. */
export interface HookChange<T = unknown> {
  previous: T;
  current: T;
}

/**
 * An issue opened, closed, reopened or updated: GitLab's Gitlab::DataBuilder::Issuable payload
 * less `user`, `project`, `repository` and the expanded assignees, which hook-service adds from
 * identity-service. `changes.assignees` carries user ids here; hook-service expands them to
 * User#hook_attrs as GitLab sends them.
 */
export interface IssueEvent {
  event_id: string;
  event_name: "issue";
  object_kind: "issue";
  /** "confidential_issue" when the issue is confidential (after the change). */
  event_type: "issue" | "confidential_issue";
  /** Who made the change (GitLab's current_user). */
  user_id: number;
  project_id: number;
  /** Issue#hook_attrs (Gitlab::HookData::IssueBuilder) with `action`. */
  object_attributes: Record<string, unknown> & { action: "open" | "close" | "reopen" | "update" };
  /** The issue's labels (Label#hook_attrs). */
  labels: Record<string, unknown>[];
  /** What changed, in GitLab's key order; `assignees` as user ids, `labels` as Label#hook_attrs. */
  changes: Record<string, HookChange>;
  /** The issue's assignees' ids, in order; hook-service sends `assignees` (User#hook_attrs) when any. */
  assignee_ids: number[];
}

/**
 * A merge request opened, closed, reopened, updated, approved, unapproved or merged: GitLab's
 * Gitlab::DataBuilder::Issuable payload for merge requests less `user`, `project`, `repository` and
 * the expanded assignees/reviewers, which hook-service adds from identity-service (as IssueEvent).
 */
export interface MergeRequestEvent {
  event_id: string;
  event_name: "merge_request";
  object_kind: "merge_request";
  event_type: "merge_request";
  /** Who made the change (GitLab's current_user). */
  user_id: number;
  project_id: number;
  /**
   * MergeRequest#hook_attrs with `action` (open, close, reopen, update, approved, unapproved,
   * approval, unapproval, merge) and, for an update by a push, `oldrev` (the previous head).
   */
  object_attributes: Record<string, unknown> & {
    action: "open" | "close" | "reopen" | "update" | "approved" | "unapproved" | "approval" | "unapproval" | "merge";
    id: number;
    iid: number;
    source_branch: string;
    target_branch: string;
    oldrev?: string;
  };
  /** The merge request's labels (Label#hook_attrs). */
  labels: Record<string, unknown>[];
  /** What changed, in GitLab's key order; `assignees`/`reviewers` as user ids, `labels` as Label#hook_attrs. */
  changes: Record<string, HookChange>;
  /** Assignee ids in order; hook-service sends `assignees` (User#hook_attrs) when any. */
  assignee_ids: number[];
  /** Reviewer ids in order; hook-service sends `reviewers` when any. */
  reviewer_ids: number[];
  /**
   * What ci-service needs for a merge request pipeline (not part of the webhook: hook-service drops
   * it): the head commit, the merge base with the target, and the CI_MERGE_REQUEST_* values.
   */
  ci: {
    head_sha: string;
    diff_base_sha: string;
    title: string;
    description: string;
    labels: string[];
    assignee_usernames: string[];
    milestone_title: string | null;
    draft: boolean;
  };
}

/**
 * A pipeline created or changed status: GitLab's Gitlab::DataBuilder::Pipeline payload less `user`
 * and `project`, which hook-service adds from identity-service. `merge_request` is set for merge
 * request pipelines (`source` merge_request_event). URLs are paths below the external URL.
 */
export interface PipelineEvent {
  event_id: string;
  object_kind: "pipeline";
  /** The pipeline's user. */
  user_id: number;
  project_id: number;
  /** Pipeline#hook_attrs: id, iid, name, ref, tag, sha, before_sha, source, status, detailed_status, stages, created_at, finished_at, duration, queued_duration, variables, url. */
  object_attributes: Record<string, unknown> & { id: number; iid: number; ref: string; sha: string; source: string; status: string };
  /** {id, iid, title, source_branch, source_project_id, target_branch, target_project_id, state, merge_status, detailed_merge_status, url}, or null. */
  merge_request: (Record<string, unknown> & { iid: number }) | null;
  /** The pipeline's commit {id, message, title, timestamp, url, author {name, email}}. */
  commit: Record<string, unknown> | null;
  /** The pipeline's jobs as GitLab lists them in the payload. */
  builds: Record<string, unknown>[];
}

/** A job changed status: GitLab's Gitlab::DataBuilder::Build payload less `user` and `project` (hook-service adds them). */
export interface JobEvent extends Record<string, unknown> {
  event_id: string;
  object_kind: "build";
  user_id: number;
  project_id: number;
  build_id: number;
  build_status: string;
  pipeline_id: number;
}

/** A deployment changed status: GitLab's Gitlab::DataBuilder::Deployment payload less `user` and `project` (hook-service adds them). */
export interface DeploymentEvent extends Record<string, unknown> {
  event_id: string;
  object_kind: "deployment";
  user_id: number;
  project_id: number;
  deployment_id: number;
  status: string;
  environment: string;
}

/**
 * A wiki page written through the API or pushed with git: GitLab's Gitlab::DataBuilder::WikiPage payload less
 * `user`, `project` and `wiki`, which hook-service adds from identity-service, and less the web
 * URLs (`url`, `diff_url`), which it builds below the external URL.
 */
export interface WikiPageEvent {
  event_id: string;
  event_name: "wiki_page";
  object_kind: "wiki_page";
  /** The acting user. */
  user_id: number;
  /** The project of a project wiki; 0 for a group wiki. */
  project_id: number;
  /** The group of a group wiki (its hooks and its ancestors' get the event, with `group` instead of `project`); absent for project wikis. */
  group_id?: number;
  object_attributes: {
    title: string;
    content: string;
    format: string;
    message: string;
    slug: string;
    action: "create" | "update" | "delete";
    /** The commit written. */
    version_id: string;
  };
}

/**
 * Something GitLab's NotificationService mails that has no webhook: a merge request set to
 * auto-merge (merge_when_pipeline_succeeds, AutoMerge::MergeWhenChecksPassService#notify) or an open
 * issue due tomorrow (issue_due, IssueDueSchedulerWorker). Recorded by hook-service, delivered to no hook.
 */
export interface NotificationEvent {
  event_id: string;
  event_name: "notification";
  object_kind: "notification";
  action: "merge_when_pipeline_succeeds" | "issue_due";
  /** The acting user (who set auto-merge); 0 for the issue_due scheduler. */
  user_id: number;
  project_id: number;
  /** merge_when_pipeline_succeeds: MergeRequest#hook_attrs. */
  merge_request?: Record<string, unknown>;
  /** issue_due: Issue#hook_attrs (with assignee_ids and due_date). */
  issue?: Record<string, unknown>;
}

/**
 * A project's path or namespace changed (PUT /projects/:id with `path`, a transfer): GitLab's
 * project_rename / project_transfer system hook payload; hook-service mails the members
 * (project_was_moved).
 */
export interface ProjectRenameEvent extends ProjectEventFields {
  event_name: "project_rename" | "project_transfer";
  /** The path_with_namespace before. */
  old_path_with_namespace: string;
}

/** Payload type per subject, for typed publish/subscribe helpers in services. */
export interface EventPayloads {
  [Subjects.userCreate]: UserCreateEvent;
  [Subjects.projectCreate]: ProjectCreateEvent;
  [Subjects.projectDestroy]: ProjectDestroyEvent;
  [Subjects.groupCreate]: GroupCreateEvent;
  [Subjects.groupDestroy]: GroupDestroyEvent;
  [Subjects.userAddToGroup]: GroupMemberEvent;
  [Subjects.userUpdateForGroup]: GroupMemberEvent;
  [Subjects.userRemoveFromGroup]: GroupMemberEvent;
  [Subjects.push]: PushEvent;
  [Subjects.tagPush]: PushEvent;
  [Subjects.mirrorSync]: MirrorSyncRequest;
  [Subjects.emoji]: EmojiEvent;
  [Subjects.note]: NoteEvent;
  [Subjects.issue]: IssueEvent;
  [Subjects.mergeRequest]: MergeRequestEvent;
  [Subjects.pipeline]: PipelineEvent;
  [Subjects.job]: JobEvent;
  [Subjects.deployment]: DeploymentEvent;
  [Subjects.wikiPage]: WikiPageEvent;
  [Subjects.notification]: NotificationEvent;
  [Subjects.projectRename]: ProjectRenameEvent;
  [Subjects.repositoryStatistics]: RepositoryStatisticsEvent;
  [Subjects.artifactsStatistics]: ArtifactsStatisticsEvent;
  [Subjects.emailConfirmation]: EmailConfirmationEvent;
  [Subjects.applicationSettings]: ApplicationSettingsEvent;
  [Subjects.audit]: AuditRecordEvent;
  [Subjects.userContributions]: UserContributionsEvent;
  [Subjects.accessChanged]: AccessChangedEvent;
}

/** A deleted user's contributions to settle (collab-service: issues, merge requests, notes, snippets, award emoji). */
export interface UserContributionsEvent {
  event_id: string;
  /** The deleted user. */
  user_id: number;
  /** The Ghost User, who takes over what is kept. */
  ghost_user_id: number;
  /** true: the user's contributions are deleted instead of moved to the Ghost User. */
  hard_delete: boolean;
}

/** The instance settings after a change (identity-service), for every service's settings cache. */
export interface ApplicationSettingsEvent {
  /** The settings under GitLab's names (schema: @quarry/application-settings). */
  settings: Record<string, unknown>;
  /** Increases with every change: an older snapshot never replaces a newer one. */
  revision: number;
}

/**
 * A project's repository measured (GitLab's Projects::UpdateStatisticsService for repository_size,
 * commit_count and wiki_size): absolute values, so the newest `measured_at` wins.
 */
export interface RepositoryStatisticsEvent {
  event_id: string;
  project_id: number;
  /** ISO-8601 time of the measurement. */
  measured_at: string;
  /** Bytes on disk of the bare repository. */
  repository_size: number;
  /** Commits on the default branch. */
  commit_count: number;
  /** Bytes on disk of the wiki repository (0 when it has none). */
  wiki_size: number;
}

/** A project's job artifacts totalled (GitLab's job_artifacts_size): absolute, the newest `measured_at` wins. */
export interface ArtifactsStatisticsEvent {
  event_id: string;
  project_id: number;
  /** ISO-8601 time of the total. */
  measured_at: string;
  /** Bytes of all the project's stored job artifacts. */
  job_artifacts_size: number;
}

/**
 * An e-mail address awaits confirmation (Devise's confirmation_instructions): hook-service mails
 * the link `<external URL>/users/confirmation?confirmation_token=<token>` to `email`. The clear token
 * travels only in this event; identity-service stores its digest.
 */
export interface EmailConfirmationEvent {
  event_id: string;
  event_name: "email_confirmation";
  created_at: string;
  updated_at: string;
  user_id: number;
  name: string;
  username: string;
  /** The address to confirm (where the mail goes). */
  email: string;
  /** The confirmation token in clear. */
  confirmation_token: string;
}

/**
 * An audited action published for activity-service alone (`quarry.audit.event`): what GitLab's
 * Gitlab::Audit::Auditor records, built by the publisher where no domain event says enough.
 */
export interface AuditRecordEvent {
  event_id: string;
  /** GitLab's event type ("member_created", "personal_access_token_created", …). */
  event_name: string;
  actor: EventActor;
  entity_type: "User" | "Group" | "Project" | "Gitlab::Audit::InstanceScope";
  entity_id: number;
  /** The entity's full path (a user's username). */
  entity_path: string;
  target_type: string;
  target_id: number | string;
  target_details: string;
  /** What GitLab puts in details besides author, target, ip and entity: custom_message, add/as, change/from/to, remove. */
  details: Record<string, string | number | null>;
}

/**
 * What an access change touches (`quarry.access.changed`): answers about these projects, about
 * anything under these namespaces (groups or personal namespaces), and for these users (as callers)
 * may have changed. Any of the lists may be absent.
 */
export interface AccessChangedEvent {
  event_id: string;
  event_name: "access_changed";
  project_ids?: number[];
  namespace_ids?: number[];
  user_ids?: number[];
}
