// GitLab's Event vocabulary (app/models/event.rb): action keys and values, target type keys.

/** Event.actions: the stored values by key. */
export const EVENT_ACTIONS = {
  created: 1,
  updated: 2,
  closed: 3,
  reopened: 4,
  pushed: 5,
  commented: 6,
  merged: 7,
  joined: 8,
  left: 9,
  destroyed: 10,
  expired: 11,
  approved: 12,
} as const;

export type EventAction = keyof typeof EVENT_ACTIONS;

const ACTION_KEYS = Object.fromEntries(Object.entries(EVENT_ACTIONS).map(([k, v]) => [v, k])) as Record<number, EventAction>;

/** The key of a stored action value ("" for an unknown one). */
export function actionKey(value: number): EventAction | "" {
  return ACTION_KEYS[value] ?? "";
}

/** Event::TARGET_TYPES: the filter's keys and the target_type values they select. */
export const TARGET_TYPES: Record<string, string[]> = {
  issue: ["Issue"],
  milestone: ["Milestone"],
  merge_request: ["MergeRequest"],
  // STI: a Note target is any note class.
  note: ["Note", "DiscussionNote", "DiffNote", "LegacyDiffNote"],
  project: ["Project"],
  snippet: ["Snippet"],
  user: ["User"],
  wiki: ["WikiPage::Meta"],
  design: ["DesignManagement::Design"],
};

/** The fields Event#action_name reads. */
export interface ActionNameInput {
  action: number;
  targetType: string | null;
  pushAction?: string | null;
}

/** GitLab's Event#action_name. */
export function actionName(e: ActionNameInput): string {
  const key = actionKey(e.action);
  if (key === "pushed") return e.pushAction === "created" ? "pushed new" : e.pushAction === "removed" ? "deleted" : "pushed to";
  if (key === "closed") return "closed";
  if (key === "merged") return "accepted";
  if (key === "joined") return "joined";
  if (key === "left") return "left";
  if (key === "expired") return "removed due to membership expiration from";
  if (key === "destroyed") return "destroyed";
  if (key === "commented") return "commented on";
  if (key === "created" && e.targetType === "WikiPage::Meta") return "created";
  if (key === "updated" && e.targetType === "WikiPage::Meta") return "updated";
  if (key === "created" && !e.targetType) return "created";
  if (key === "approved") return "approved";
  return "opened";
}
