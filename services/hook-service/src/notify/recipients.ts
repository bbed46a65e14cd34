// Who gets a notification e-mail: GitLab's NotificationRecipients::Builder::Default and
// NotificationRecipient#notifiable?, over settings already resolved project > group > global.

/** GitLab's custom actions (NotificationSetting::EMAIL_EVENTS) that Quarry mails. */
export type NotifyAction =
  | "new_issue"
  | "close_issue"
  | "reopen_issue"
  | "reassign_issue"
  | "new_note"
  | "new_merge_request"
  | "merge_merge_request"
  | "close_merge_request"
  | "reopen_merge_request"
  | "reassign_merge_request"
  | "change_reviewer_merge_request"
  | "push_to_merge_request"
  | "merge_when_pipeline_succeeds"
  | "issue_due";

/** How a user came to be considered (GitLab's recipient types). */
export type RecipientType = "participating" | "watch" | "custom" | "mention" | "approver";

/** X-GitLab-NotificationReason values, by priority (GitLab's NotificationReason::REASON_PRIORITY). */
const REASON_PRIORITY = ["own_activity", "assigned", "review_requested", "mentioned", "subscribed"] as const;
export type NotificationReason = (typeof REASON_PRIORITY)[number];

/** One user's effective setting (identity's ResolveNotificationSettings). */
export interface EffectiveSetting {
  /** participating, watch, mention, custom or disabled (never global). */
  level: string;
  /** The custom level's event switches (snake_case action → on). */
  events: Partial<Record<string, boolean>>;
  /** Where the mail goes. */
  email: string;
}

export interface RecipientInput {
  action: NotifyAction;
  /** The acting user: never notified (notified_of_own_activity is not supported). */
  actorId: number;
  /** The participants: author, assignees, reviewers, commenters, @mentioned users (GitLab's Participable). */
  participantIds: number[];
  /** The author (reads a confidential issue); unset = every participant counts as involved. */
  authorId?: number;
  /** Users @mentioned by what is notified about (the new note, or a new issue's/merge request's description): reason mentioned. */
  mentionedIds?: number[];
  /** The assignees now. */
  assigneeIds: number[];
  /** reassign: the assignees before. */
  previousAssigneeIds: number[];
  /** Merge requests: the reviewers now (participants too). */
  reviewerIds?: number[];
  /** change_reviewer: the reviewers before. */
  previousReviewerIds?: number[];
  /** Project members (direct and inherited) with their access level. */
  members: Map<number, number>;
  /** Private and internal projects mail members only; public ones anyone involved. */
  membersOnly: boolean;
  /** Confidential issues: Reporter and above, the author and assignees only (GitLab's read_issue). */
  confidential: boolean;
  /** An internal note: no watchers or custom members, Reporters and above only (NotificationRecipients::Builder::NewNote). */
  internalNote?: boolean;
  /**
   * new_merge_request: the members who may approve it (Developer and above, collab's approval rule);
   * those whose custom setting has the approver switch on are told (EE's approver custom event).
   */
  approverIds?: number[];
  /** Everyone above's effective setting (unknown users left out). */
  settings: Map<number, EffectiveSetting>;
}

export interface Recipient {
  userId: number;
  email: string;
  reason: NotificationReason | null;
}

const REPORTER = 20;
/** Watchers are not mailed these (NotificationRecipient::EXCLUDED_WATCHER_EVENTS). */
const EXCLUDED_WATCHER_EVENTS = new Set<string>(["push_to_merge_request", "issue_due", "success_pipeline"]);

/** GitLab's NotificationRecipient#suitable_notification_level?. */
function suitable(level: string, type: RecipientType, setting: EffectiveSetting, action: NotifyAction): boolean {
  // An eligible approver of a new merge request: the custom level's approver switch.
  if (type === "approver") return level === "custom" && setting.events.approver === true;
  switch (level) {
    case "mention":
      return type === "mention";
    case "custom":
      return setting.events[action] === true || type === "participating" || type === "mention";
    case "watch":
      return !EXCLUDED_WATCHER_EVENTS.has(action);
    case "participating":
      return type === "participating" || type === "mention" || type === "watch";
    default:
      return false;
  }
}

/** The users to mail for one action, each once with their most telling reason, in user id order. */
export function buildRecipients(i: RecipientInput): Recipient[] {
  const candidates: { userId: number; type: RecipientType; reason: NotificationReason | null }[] = [];
  const add = (ids: Iterable<number>, type: RecipientType, reason: NotificationReason | null) => {
    for (const userId of ids) candidates.push({ userId, type, reason });
  };
  add(i.participantIds, "participating", null);
  for (const [userId] of i.internalNote ? [] : i.members) {
    const level = i.settings.get(userId)?.level;
    if (level === "watch") add([userId], "watch", null);
    if (level === "custom" && i.settings.get(userId)?.events[i.action]) add([userId], "custom", null);
  }
  // Re-assignment is a mention of the old and new assignees.
  if (i.action === "reassign_issue" || i.action === "reassign_merge_request") {
    add(i.previousAssigneeIds, "mention", null);
    add(i.assigneeIds, "mention", "assigned");
  }
  if (i.action === "change_reviewer_merge_request") {
    add(i.previousReviewerIds ?? [], "mention", null);
    add(i.reviewerIds ?? [], "mention", "review_requested");
  }
  // add_mentions: mention level included.
  add(i.mentionedIds ?? [], "mention", "mentioned");
  if (i.action === "new_issue" || i.action === "new_merge_request") add(i.assigneeIds, "participating", "assigned");
  if (i.action === "new_merge_request") {
    add(i.reviewerIds ?? [], "participating", "review_requested");
    for (const userId of i.approverIds ?? []) {
      const setting = i.settings.get(userId);
      if (setting?.level === "custom" && setting.events.approver) add([userId], "approver", null);
    }
  }

  // Confidential issues: their author and assignees read them, not every participant (commenters, mentioned users).
  const involved = new Set([...(i.authorId !== undefined ? [i.authorId] : i.participantIds), ...i.assigneeIds]);
  const canRead = (userId: number) => {
    const level = i.members.get(userId);
    if (i.internalNote) return (level ?? 0) >= REPORTER;
    if (i.confidential) return involved.has(userId) || (level ?? 0) >= REPORTER;
    return !i.membersOnly || level !== undefined;
  };
  const chosen = new Map<number, Recipient>();
  for (const c of candidates) {
    if (c.userId === i.actorId || !canRead(c.userId)) continue;
    const setting = i.settings.get(c.userId);
    if (!setting?.email || !suitable(setting.level, c.type, setting, i.action)) continue;
    const prev = chosen.get(c.userId);
    if (!prev || rank(c.reason) < rank(prev.reason)) chosen.set(c.userId, { userId: c.userId, email: setting.email, reason: c.reason });
  }
  return [...chosen.values()].sort((a, b) => a.userId - b.userId);
}

function rank(reason: NotificationReason | null): number {
  return reason === null ? REASON_PRIORITY.length : REASON_PRIORITY.indexOf(reason);
}
