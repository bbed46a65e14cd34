// Which hook switch, trigger name and X-Service-Event header belong to each event kind.
import { createHash } from "node:crypto";
import type { SwitchName } from "../hook/hook-common.ts";

export interface EventKind {
  /** The hook's event switch. */
  switch: SwitchName;
  /** GitLab's hooks scope, stored as the delivery record's trigger. */
  trigger: string;
  /** X-Service-Event (GitLab's X-Gitlab-Event). */
  header: string;
}

/** Event kinds by event_name (the bus payload's). */
export const EVENT_KINDS: Record<string, EventKind> = {
  push: { switch: "pushEvents", trigger: "push_hooks", header: "Push Hook" },
  tag_push: { switch: "tagPushEvents", trigger: "tag_push_hooks", header: "Tag Push Hook" },
  // Group hooks only: projects created or deleted in the group, subgroups created in it.
  project_create: { switch: "projectEvents", trigger: "project_hooks", header: "Project Hook" },
  project_destroy: { switch: "projectEvents", trigger: "project_hooks", header: "Project Hook" },
  group_create: { switch: "subgroupEvents", trigger: "subgroup_hooks", header: "Subgroup Hook" },
  // Group hooks only: memberships of the group (GitLab's GroupMember#execute_hooks_for); GitLab has no test for them.
  user_add_to_group: { switch: "memberEvents", trigger: "member_hooks", header: "Member Hook" },
  user_update_for_group: { switch: "memberEvents", trigger: "member_hooks", header: "Member Hook" },
  user_remove_from_group: { switch: "memberEvents", trigger: "member_hooks", header: "Member Hook" },
  // Awards and revokes of emoji (collab-service), to project hooks and the project's groups' hooks.
  emoji: { switch: "emojiEvents", trigger: "emoji_hooks", header: "Emoji Hook" },
  // Comments and issues (collab-service), to project hooks and the project's groups' hooks. The
  // confidential kinds (internal notes, notes on and changes of confidential issues) are the
  // event's event_type; GitLab's header is the hooks scope titleized.
  note: { switch: "noteEvents", trigger: "note_hooks", header: "Note Hook" },
  confidential_note: { switch: "confidentialNoteEvents", trigger: "confidential_note_hooks", header: "Confidential Note Hook" },
  issue: { switch: "issuesEvents", trigger: "issue_hooks", header: "Issue Hook" },
  confidential_issue: { switch: "confidentialIssuesEvents", trigger: "confidential_issue_hooks", header: "Confidential Issue Hook" },
  // Merge requests (collab-service) and CI (ci-service: pipelines, jobs, deployments), to project
  // hooks and the project's groups' hooks. ci-service's events have no event_name: the subject's
  // last token (quarry.ci.pipeline|job|deployment) names them.
  merge_request: { switch: "mergeRequestsEvents", trigger: "merge_request_hooks", header: "Merge Request Hook" },
  pipeline: { switch: "pipelineEvents", trigger: "pipeline_hooks", header: "Pipeline Hook" },
  job: { switch: "jobEvents", trigger: "job_hooks", header: "Job Hook" },
  deployment: { switch: "deploymentEvents", trigger: "deployment_hooks", header: "Deployment Hook" },
  // Wiki pages written through the API (repo-service).
  wiki_page: { switch: "wikiPageEvents", trigger: "wiki_page_hooks", header: "Wiki Page Hook" },
};

/**
 * The EVENT_KINDS key of an event: its event_name, except that a note or issue event whose
 * event_type is the confidential one goes to the confidential hooks scope.
 */
export function eventKindName(eventName: string, data: Record<string, unknown>): string {
  if ((eventName === "note" || eventName === "issue") && data.event_type === `confidential_${eventName}`) return `confidential_${eventName}`;
  return eventName;
}

/** X-Service-Event by trigger, for resends and tests. */
export const EVENT_HEADERS: Record<string, string> = Object.fromEntries(Object.values(EVENT_KINDS).map((k) => [k.trigger, k.header]));

/** Test triggers (API `:trigger`) → event kind. */
export const TEST_TRIGGERS: Record<string, string> = {
  push_events: "push",
  tag_push_events: "tag_push",
  merge_requests_events: "merge_request",
  pipeline_events: "pipeline",
  job_events: "job",
  deployment_events: "deployment",
};

/** A deterministic UUID (version 8 layout, SHA-256 based) for a name: stable across bus redeliveries. */
export function nameUuid(name: string): string {
  const h = createHash("sha256").update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** X-Service-Event-UUID: one per event, shared by every hook that receives it. */
export const eventUuid = (eventId: string) => nameUuid(`event:${eventId}`);
/** Idempotency-Key: one per (event, hook), the same on every retry and resend. */
export const idempotencyKey = (eventId: string, hookId: number) => nameUuid(`delivery:${eventId}:${hookId}`);
