import type { NotificationEvents__Output as NotificationEvents } from "@quarry/proto/types/identity/v1/NotificationEvents";
import type { NotificationSetting__Output as NotificationSetting } from "@quarry/proto/types/identity/v1/NotificationSetting";

/** GitLab's NotificationSetting email events: API name → proto field. */
export const NOTIFICATION_EVENTS = {
  new_release: "newRelease",
  new_note: "newNote",
  new_issue: "newIssue",
  reopen_issue: "reopenIssue",
  close_issue: "closeIssue",
  reassign_issue: "reassignIssue",
  issue_due: "issueDue",
  new_merge_request: "newMergeRequest",
  push_to_merge_request: "pushToMergeRequest",
  reopen_merge_request: "reopenMergeRequest",
  close_merge_request: "closeMergeRequest",
  reassign_merge_request: "reassignMergeRequest",
  change_reviewer_merge_request: "changeReviewerMergeRequest",
  merge_merge_request: "mergeMergeRequest",
  failed_pipeline: "failedPipeline",
  fixed_pipeline: "fixedPipeline",
  success_pipeline: "successPipeline",
  moved_project: "movedProject",
  merge_when_pipeline_succeeds: "mergeWhenPipelineSucceeds",
  approver: "approver",
  new_epic: "newEpic",
} as const satisfies Record<string, keyof NotificationEvents>;

export type NotificationEventName = keyof typeof NOTIFICATION_EVENTS;

/** GitLab's Entities::NotificationSetting: the level, and every event switch when it is custom. */
export function notificationSettingEntity(s: NotificationSetting) {
  if (s.level !== "custom") return { level: s.level };
  const events: Record<string, boolean | null> = {};
  for (const [name, field] of Object.entries(NOTIFICATION_EVENTS)) events[name] = s.events?.[field] ?? null;
  return { level: s.level, events };
}

/** Entities::GlobalNotificationSetting: the above plus the notification e-mail. */
export function globalNotificationSettingEntity(s: NotificationSetting) {
  return { ...notificationSettingEntity(s), notification_email: s.notificationEmail };
}
