// E-mail notifications (GitLab's NotificationService) from a durable bus consumer of its own, so
// mails and webhooks progress independently. Each (event, recipient) is claimed in
// notification_deliveries before sending and marked sent once the SMTP server accepts the mail:
// a redelivered event mails nobody twice; a crash between acceptance and marking resends that
// one mail (at least once).
import { type EmailConfirmationEvent, Subjects } from "@quarry/bus";
import type {
  BusMessage,
  EventBus,
  IssueEvent,
  MergeRequestEvent,
  NoteEvent,
  NotificationEvent,
  PipelineEvent,
  ProjectRenameEvent,
  Subscription,
} from "@quarry/bus";
import { isNotFound } from "@quarry/grpc";
import nodemailer from "nodemailer";
import { SYSTEM_ACTOR } from "../delivery/fan-out.ts";
import { absolute, type Deps, deliver, effectiveSettings, type Notifier, projectMembers } from "./common.ts";
import { issueMail } from "./issue-mail.ts";
import { notifyPipeline } from "./pipeline.ts";
import { notifyProjectMoved } from "./project-moved.ts";
import { notifyEmailConfirmation } from "./confirmation.ts";
import { buildRecipients, type NotifyAction } from "./recipients.ts";

const DEVELOPER = 30;

/** Durable consumer name for the collab events' mails (separate from the webhook consumers). */
export const NOTIFY_DURABLE = "hook-service-notify";
/** Durable consumer name for the CI events' mails. */
export const NOTIFY_CI_DURABLE = "hook-service-notify-ci";
/** Durable consumer name for the identity events' mails (project_was_moved). */
export const NOTIFY_IDENTITY_DURABLE = "hook-service-notify-identity";
/** Durable consumer name for the e-mail confirmation links (quarry.mail.email_confirmation). */
export const NOTIFY_MAIL_DURABLE = "hook-service-notify-mail";

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0) : []);

/** The custom action of an issue event, or null for changes GitLab does not mail. */
export function issueAction(e: IssueEvent): NotifyAction | null {
  switch (e.object_attributes.action) {
    case "open":
      return "new_issue";
    case "close":
      return "close_issue";
    case "reopen":
      return "reopen_issue";
    case "update":
      return e.changes?.assignees ? "reassign_issue" : null;
    default:
      return null;
  }
}

/** collab's noteable_type of a mail kind. */
const NOTEABLE_TYPE = { issue: "Issue", merge_request: "MergeRequest", snippet: "Snippet" } as const;

/**
 * The participants and @mentions collab-service knows (Participable): those of the note `noteId`, or
 * of the description. Without a collab client, or for a noteable gone since, none beyond the event's.
 */
async function participantsOf(deps: Deps, projectId: number, kind: keyof typeof NOTEABLE_TYPE, id: number, noteId = 0) {
  if (!deps.collab || !(id > 0)) return { userIds: [] as number[], mentionedUserIds: [] as number[] };
  try {
    const res = await deps.collab.ListNoteableParticipants({ actor: SYSTEM_ACTOR, projectId, noteableType: NOTEABLE_TYPE[kind], noteableId: id, noteId });
    return { userIds: res.userIds.map(Number), mentionedUserIds: res.mentionedUserIds.map(Number) };
  } catch (err) {
    if (isNotFound(err)) return { userIds: [] as number[], mentionedUserIds: [] as number[] };
    throw err;
  }
}

/** Actions whose own text's @mentions are mailed with reason mentioned (GitLab's add_mentions). */
const MENTIONING = new Set<NotifyAction>(["new_issue", "new_merge_request", "new_note"]);

/** What an issue or merge request event, or a note on an issue, merge request or snippet, asks to mail. */
interface IssueNotification {
  kind: "issue" | "merge_request" | "snippet";
  eventId: string;
  action: NotifyAction;
  actorId: number;
  projectId: number;
  /** Issue#hook_attrs. */
  issue: Record<string, unknown>;
  assigneeIds: number[];
  previousAssigneeIds: number[];
  reviewerIds?: number[];
  previousReviewerIds?: number[];
  /** new_note: the note (Note#hook_attrs with url). */
  note?: Record<string, unknown>;
  internalNote?: boolean;
}

/** Mails the recipients of one issue notification; returns how many mails were sent now. */
async function notifyAboutIssue(deps: Deps, n: Notifier, x: IssueNotification): Promise<number> {
  let project: Awaited<ReturnType<Deps["identity"]["GetProject"]>>;
  try {
    project = await deps.identity.GetProject({ actor: SYSTEM_ACTOR, idOrPath: String(x.projectId) });
  } catch (err) {
    if (isNotFound(err)) return 0; // the project is gone: nobody to tell
    throw err;
  }
  const authorId = Number(x.issue.author_id);
  const reviewerIds = x.reviewerIds ?? [];
  const previousReviewerIds = x.previousReviewerIds ?? [];
  const known = await participantsOf(deps, x.projectId, x.kind, Number(x.issue.id), x.note ? Number(x.note.id) : 0);
  const mentionedIds = MENTIONING.has(x.action) ? known.mentionedUserIds : [];
  const participantIds = [...new Set([...(authorId > 0 ? [authorId] : []), ...x.assigneeIds, ...reviewerIds, ...known.userIds])];
  const members = await projectMembers(deps, x.projectId);
  const candidates = [...new Set([...participantIds, ...mentionedIds, ...x.previousAssigneeIds, ...previousReviewerIds, ...members.keys()])];
  const approving = x.action === "new_merge_request";
  const settings = await effectiveSettings(deps, candidates, x.projectId, x.action, approving ? ["approver"] : []);
  // Who may approve (collab's mayApprove): Developer and above; the author is the acting user.
  const approverIds = approving ? [...members].filter(([, level]) => level >= DEVELOPER).map(([id]) => id) : [];
  const recipients = buildRecipients({
    action: x.action,
    actorId: x.actorId,
    participantIds,
    authorId: Math.max(authorId || 0, 0),
    mentionedIds,
    approverIds,
    assigneeIds: x.assigneeIds,
    previousAssigneeIds: x.previousAssigneeIds,
    reviewerIds,
    previousReviewerIds,
    members,
    // Project snippets: a private one is for members (visibility_level 0), as is everything in a non-public project.
    membersOnly: project.visibility !== "public" || (x.kind === "snippet" && Number(x.issue.visibility_level ?? 0) === 0),
    confidential: x.issue.confidential === true,
    internalNote: x.internalNote,
    settings,
  });
  if (!recipients.length) return 0;

  const named = [...new Set([x.actorId, ...x.assigneeIds, ...x.previousAssigneeIds, ...reviewerIds, ...previousReviewerIds])];
  const { users } = await deps.identity.GetUsers({ actor: SYSTEM_ACTOR, ids: named });
  const name = new Map(users.map((u) => [Number(u.id), u.name]));
  const names = (list: number[]) => list.map((id) => name.get(id) ?? "Ghost User");
  const mailProject = { id: x.projectId, name: project.name, pathWithNamespace: project.pathWithNamespace };
  const issue = {
    kind: x.kind,
    id: Number(x.issue.id),
    iid: Number(x.issue.iid ?? 0),
    title: String(x.issue.title ?? ""),
    description: String(x.issue.description ?? ""),
    url: absolute(deps, x.issue.url),
    dueDate: typeof x.issue.due_date === "string" ? x.issue.due_date : undefined,
  };
  const note = x.note ? { text: String(x.note.note ?? ""), url: absolute(deps, x.note.url) } : undefined;
  let sent = 0;
  for (const r of recipients) {
    const mail = issueMail({
      action: x.action,
      project: mailProject,
      issue,
      note,
      actorName: names([x.actorId])[0] ?? "Ghost User",
      assigneeNames: names(x.assigneeIds),
      previousAssigneeNames: names(x.previousAssigneeIds),
      reviewerNames: names(reviewerIds),
      previousReviewerNames: names(previousReviewerIds),
      branches: x.kind === "merge_request" ? { source: String(x.issue.source_branch ?? ""), target: String(x.issue.target_branch ?? "") } : undefined,
      reason: r.reason,
    });
    if (await deliver(deps, n, x.eventId, x.action, r, mail)) sent++;
  }
  return sent;
}

/** Mails an issue event's recipients; returns how many mails were sent now. */
export function notifyIssue(deps: Deps, n: Notifier, e: IssueEvent): Promise<number> {
  const action = issueAction(e);
  if (!action) return Promise.resolve(0);
  const change = e.changes?.assignees as { previous?: unknown } | undefined;
  return notifyAboutIssue(deps, n, {
    kind: "issue",
    eventId: e.event_id,
    action,
    actorId: Number(e.user_id),
    projectId: Number(e.project_id),
    issue: e.object_attributes,
    assigneeIds: ids(e.assignee_ids),
    previousAssigneeIds: ids(change?.previous),
  });
}

/** The custom action of a merge request event, or null for what GitLab does not mail here. */
export function mergeRequestAction(e: MergeRequestEvent): NotifyAction | null {
  switch (e.object_attributes.action) {
    case "open":
      return "new_merge_request";
    case "close":
      return "close_merge_request";
    case "reopen":
      return "reopen_merge_request";
    case "merge":
      return "merge_merge_request";
    case "update":
      if (e.object_attributes.oldrev) return "push_to_merge_request";
      if (e.changes?.assignees) return "reassign_merge_request";
      if (e.changes?.reviewers) return "change_reviewer_merge_request";
      return null;
    default:
      return null;
  }
}

/** Mails a merge request event's recipients; returns how many mails were sent now. */
export function notifyMergeRequest(deps: Deps, n: Notifier, e: MergeRequestEvent): Promise<number> {
  const action = mergeRequestAction(e);
  if (!action) return Promise.resolve(0);
  const assignees = e.changes?.assignees as { previous?: unknown } | undefined;
  const reviewers = e.changes?.reviewers as { previous?: unknown } | undefined;
  return notifyAboutIssue(deps, n, {
    kind: "merge_request",
    eventId: e.event_id,
    action,
    actorId: Number(e.user_id),
    projectId: Number(e.project_id),
    issue: e.object_attributes,
    assigneeIds: ids(e.assignee_ids),
    previousAssigneeIds: ids(assignees?.previous),
    reviewerIds: ids(e.reviewer_ids),
    previousReviewerIds: ids(reviewers?.previous),
  });
}

/**
 * Mails a new comment on an issue, merge request or project snippet (GitLab's new_note; edits and
 * system notes mail nobody).
 */
export function notifyNote(deps: Deps, n: Notifier, e: NoteEvent): Promise<number> {
  if (e.object_attributes.action !== "create" || e.object_attributes.system === true) return Promise.resolve(0);
  const [kind, target] = e.issue
    ? (["issue", e.issue] as const)
    : e.merge_request
      ? (["merge_request", e.merge_request] as const)
      : e.snippet
        ? (["snippet", e.snippet] as const)
        : [null, null];
  if (!kind) return Promise.resolve(0);
  return notifyAboutIssue(deps, n, {
    kind,
    eventId: e.event_id,
    action: "new_note",
    actorId: Number(e.user_id),
    projectId: Number(e.project_id),
    issue: target,
    assigneeIds: ids(target.assignee_ids),
    previousAssigneeIds: [],
    reviewerIds: ids(target.reviewer_ids),
    note: e.object_attributes,
    // confidential_note on what is not a confidential issue: an internal note.
    internalNote: e.event_type === "confidential_note" && target.confidential !== true,
  });
}

/**
 * What GitLab mails without a webhook: merge_when_pipeline_succeeds (NotificationService#
 * merge_when_pipeline_succeeds: the Default recipients of the merge request) and issue_due
 * (NotificationService#issue_due: the Default recipients with skip_current_user false, so the
 * author too; watchers are not told, NotificationRecipient's excluded watcher events).
 */
export function notifyNotification(deps: Deps, n: Notifier, e: NotificationEvent): Promise<number> {
  if (e.action === "merge_when_pipeline_succeeds" && e.merge_request) {
    const mr = e.merge_request;
    return notifyAboutIssue(deps, n, {
      kind: "merge_request",
      eventId: e.event_id,
      action: "merge_when_pipeline_succeeds",
      actorId: Number(e.user_id),
      projectId: Number(e.project_id),
      issue: mr,
      assigneeIds: ids(mr.assignee_ids),
      previousAssigneeIds: [],
      reviewerIds: ids(mr.reviewer_ids),
    });
  }
  if (e.action === "issue_due" && e.issue) {
    return notifyAboutIssue(deps, n, {
      kind: "issue",
      eventId: e.event_id,
      action: "issue_due",
      // Nobody is skipped: the author is told too.
      actorId: 0,
      projectId: Number(e.project_id),
      issue: e.issue,
      assigneeIds: ids(e.issue.assignee_ids),
      previousAssigneeIds: [],
    });
  }
  return Promise.resolve(0);
}

/** Handles one collab event; a failure (SMTP or identity down) throws, so the bus redelivers. */
export async function handleNotifyMessage(deps: Deps, n: Notifier, msg: BusMessage<unknown>): Promise<number> {
  const data = msg.data as { object_kind?: unknown; event_id?: unknown } | null;
  if (typeof data?.event_id !== "string") return 0;
  if (data.object_kind === "issue") return notifyIssue(deps, n, data as IssueEvent);
  if (data.object_kind === "note") return notifyNote(deps, n, data as NoteEvent);
  if (data.object_kind === "merge_request") return notifyMergeRequest(deps, n, data as MergeRequestEvent);
  if (data.object_kind === "pipeline") return notifyPipeline(deps, n, data as PipelineEvent);
  if (data.object_kind === "notification") return notifyNotification(deps, n, data as NotificationEvent);
  const named = data as { event_name?: unknown };
  if (named.event_name === "project_rename" || named.event_name === "project_transfer") return notifyProjectMoved(deps, n, data as ProjectRenameEvent);
  if (named.event_name === "email_confirmation") return notifyEmailConfirmation(deps, n, data as EmailConfirmationEvent);
  return 0;
}

/** Subscribes the mail consumers to the collab and CI events. */
export async function subscribeNotifications(
  bus: EventBus,
  deps: Deps,
  n: Notifier,
  subjects: { collab: string; ci: string; identity: string },
): Promise<Subscription[]> {
  const handler = async (msg: BusMessage<unknown>) => {
    const sent = await handleNotifyMessage(deps, n, msg);
    if (sent) deps.log.debug({ subject: msg.subject, id: msg.id, sent }, "notification e-mails sent");
  };
  const subs: Subscription[] = [];
  try {
    subs.push(await bus.subscribe(subjects.collab, handler, { durable: NOTIFY_DURABLE }));
    subs.push(await bus.subscribe(subjects.ci, handler, { durable: NOTIFY_CI_DURABLE }));
    subs.push(await bus.subscribe(subjects.identity, handler, { durable: NOTIFY_IDENTITY_DURABLE }));
    subs.push(await bus.subscribe(Subjects.emailConfirmation, handler, { durable: NOTIFY_MAIL_DURABLE }));
    return subs;
  } catch (err) {
    await Promise.all(subs.map((s) => s.unsubscribe()));
    throw err;
  }
}

/** A nodemailer SMTP transport for `smtpUrl` (smtp:// or smtps://, credentials in the URL). */
export function createNotifier(smtpUrl: string, from?: string): Notifier {
  return { transport: nodemailer.createTransport(smtpUrl), from };
}
