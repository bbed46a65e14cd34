// What contribution event a domain event makes (pure): GitLab's EventCreateService calls, from
// the payloads the services publish.
import { type BusMessage, Subjects } from "@quarry/bus";
import { EVENT_ACTIONS, type EventAction } from "./actions.ts";

type Payload = Record<string, unknown>;

/** GitLab's PushEventPayload columns. */
export interface PushDraft {
  commitCount: number;
  action: "pushed" | "created" | "removed";
  refType: "branch" | "tag";
  commitFrom: string | null;
  commitTo: string | null;
  ref: string;
  commitTitle: string | null;
}

/** An event to record; `wikiSlug` asks the recorder for the page's WikiPage::Meta id as target. */
export interface EventDraft {
  sourceEventId: string;
  projectId: number;
  authorId: number;
  action: number;
  targetId: number | null;
  targetIid: number | null;
  targetType: string | null;
  targetTitle: string | null;
  confidential: boolean;
  /** Who may read a confidential issue's event besides Reporters and up (its author and assignees). */
  confidentialReaderIds: number[];
  data: Record<string, unknown> | null;
  push?: PushDraft;
  wiki?: { slug: string; title: string };
}

/** The subjects whose messages may make contribution events besides identity's and audit records. */
export const CONTRIBUTION_SUBJECTS = [Subjects.push, Subjects.tagPush, Subjects.issue, Subjects.mergeRequest, Subjects.note, Subjects.wikiPage] as const;

const BLANK_SHA = /^0+$/;
const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const obj = (v: unknown): Payload | null => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Payload) : null);

/** A confidential issue's readers below Reporter (GitLab's read_issue): its author and assignees. */
function issueReaders(issue: Payload | null, assigneeIds?: unknown): number[] {
  if (!issue) return [];
  const ids = [num(issue.author_id), ...(Array.isArray(assigneeIds ?? issue.assignee_ids) ? ((assigneeIds ?? issue.assignee_ids) as unknown[]).map(num) : [])];
  return [...new Set(ids.filter((n) => Number.isSafeInteger(n) && n > 0))];
}

/** "refs/heads/main" → "main", "refs/tags/v1" → "v1" (Gitlab::Git.ref_name). */
function refName(ref: string): string {
  if (ref.startsWith("refs/heads/")) return ref.slice("refs/heads/".length);
  if (ref.startsWith("refs/tags/")) return ref.slice("refs/tags/".length);
  return ref;
}

/** PushEventPayloadService#commit_title: the last commit's first line, stripped, at most 70 characters (Rails' truncate). */
export function commitTitle(commits: unknown): string | null {
  if (!Array.isArray(commits) || !commits.length) return null;
  const message = str(obj(commits[commits.length - 1])?.message);
  if (message === null) return null;
  const nl = message.indexOf("\n");
  const line = (nl >= 0 ? message.slice(0, nl + 1) : message).trim();
  return line.length > 70 ? `${line.slice(0, 67)}...` : line;
}

function base(eventId: string, projectId: number, authorId: number, action: EventAction): EventDraft | null {
  if (!(projectId > 0) || !(authorId > 0)) return null;
  return {
    sourceEventId: eventId,
    projectId,
    authorId,
    action: EVENT_ACTIONS[action],
    targetId: null,
    targetIid: null,
    targetType: null,
    targetTitle: null,
    confidential: false,
    confidentialReaderIds: [],
    data: null,
  };
}

function pushDraft(eventId: string, p: Payload, tag: boolean): EventDraft | null {
  const d = base(eventId, num(p.project_id), num(p.user_id), "pushed");
  if (!d) return null;
  const before = str(p.before) ?? "";
  const after = str(p.after) ?? "";
  const created = !before || BLANK_SHA.test(before);
  const removed = !after || BLANK_SHA.test(after);
  d.push = {
    commitCount: Math.max(0, num(p.total_commits_count) || 0),
    action: created ? "created" : removed ? "removed" : "pushed",
    refType: tag ? "tag" : "branch",
    commitFrom: created ? null : before,
    commitTo: removed ? null : after,
    ref: refName(str(p.ref) ?? ""),
    commitTitle: commitTitle(p.commits),
  };
  return d;
}

const ISSUE_ACTIONS: Record<string, EventAction> = { open: "created", close: "closed", reopen: "reopened" };
const MR_ACTIONS: Record<string, EventAction> = {
  open: "created",
  close: "closed",
  reopen: "reopened",
  merge: "merged",
  approved: "approved",
  approval: "approved",
};

function issuableDraft(eventId: string, p: Payload, type: "Issue" | "MergeRequest"): EventDraft | null {
  const attrs = obj(p.object_attributes);
  if (!attrs) return null;
  const action = (type === "Issue" ? ISSUE_ACTIONS : MR_ACTIONS)[String(attrs.action)];
  if (!action) return null;
  const d = base(eventId, num(p.project_id), num(p.user_id), action);
  if (!d) return null;
  d.targetId = num(attrs.id) || null;
  d.targetIid = num(attrs.iid) || null;
  d.targetType = type;
  d.targetTitle = str(attrs.title);
  d.confidential = p.event_type === "confidential_issue";
  if (d.confidential && type === "Issue") d.confidentialReaderIds = issueReaders(attrs, p.assignee_ids);
  return d;
}

/** A hook time ("2026-01-02 03:04:05 UTC") or ISO string as ISO 8601. */
function isoTime(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  const d = new Date(s.endsWith(" UTC") ? `${s.slice(0, -4).replace(" ", "T")}Z` : s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function noteDraft(eventId: string, p: Payload): EventDraft | null {
  const attrs = obj(p.object_attributes);
  if (attrs?.action !== "create" || attrs.system === true) return null;
  const d = base(eventId, num(p.project_id), num(p.user_id), "commented");
  if (!d) return null;
  const noteable = obj(p.issue) ?? obj(p.merge_request) ?? obj(p.snippet);
  const commit = obj(p.commit);
  const noteableConfidential = obj(p.issue)?.confidential === true;
  const confidential = p.event_type === "confidential_note";
  d.targetId = num(attrs.id) || null;
  d.targetIid = d.targetId;
  d.targetType = str(attrs.type) || "Note";
  d.targetTitle = str(noteable?.title) ?? (commit ? (str(commit.title) ?? commitTitle([commit])) : null);
  d.confidential = confidential;
  // A comment on a confidential issue is for whoever may read the issue, an internal note for Reporters
  // and up only: the issue's author and assignees are readers only when the payload says the note is
  // not internal (collab-service's note payload does not tell today, so none are).
  if (confidential && noteableConfidential && attrs.internal === false) d.confidentialReaderIds = issueReaders(obj(p.issue));
  d.data = {
    note: {
      id: d.targetId,
      type: str(attrs.type),
      body: str(attrs.note) ?? "",
      author_id: num(attrs.author_id) || d.authorId,
      created_at: isoTime(attrs.created_at),
      updated_at: isoTime(attrs.updated_at),
      system: false,
      noteable_id: num(attrs.noteable_id) || null,
      noteable_type: str(attrs.noteable_type),
      noteable_iid: num(obj(p.issue)?.iid ?? obj(p.merge_request)?.iid) || null,
      project_id: d.projectId,
      // The payload's flag when it has one; otherwise an internal note is a confidential note on an
      // issue that is not confidential (on a confidential issue it cannot be told apart).
      internal: typeof attrs.internal === "boolean" ? attrs.internal : confidential && !noteableConfidential,
    },
  };
  return d;
}

const WIKI_ACTIONS: Record<string, EventAction> = { create: "created", update: "updated", delete: "destroyed" };

function wikiDraft(eventId: string, p: Payload): EventDraft | null {
  const attrs = obj(p.object_attributes);
  const action = attrs && WIKI_ACTIONS[String(attrs.action)];
  if (!attrs || !action) return null;
  // Group wikis' events have no project: GitLab's Events API leaves them out.
  const d = base(eventId, num(p.project_id), num(p.user_id), action);
  if (!d) return null;
  const title = str(attrs.title) ?? "";
  const slug = str(attrs.slug) ?? "";
  d.targetType = "WikiPage::Meta";
  d.targetTitle = title;
  d.wiki = { slug, title };
  d.data = { wiki_page: { format: str(attrs.format) ?? "markdown", slug, title } };
  return d;
}

function actorId(p: Payload): number {
  return num(obj(p.actor)?.user_id);
}

/**
 * The contribution event a bus message makes (null: none). Project members join and leave through
 * identity-service's audit records (member_created / member_destroyed on a Project): the member is
 * the author, as GitLab's EventCreateService#join_source / #leave_project record them.
 */
export function eventDraftOf(msg: BusMessage<unknown>): EventDraft | null {
  const p = obj(msg.data);
  if (!p) return null;
  const eventId = typeof p.event_id === "string" && p.event_id ? p.event_id : msg.id;
  // An audit record (quarry.audit.event): no object_kind, an entity and a target.
  if (p.object_kind === undefined && typeof p.entity_type === "string" && p.target_type !== undefined) {
    if (p.entity_type !== "Project" || p.target_type !== "User") return null;
    const action = p.event_name === "member_created" ? "joined" : p.event_name === "member_destroyed" ? "left" : null;
    return action ? base(eventId, num(p.entity_id), num(p.target_id), action) : null;
  }
  if (p.object_kind === "push" || p.object_kind === "tag_push") return pushDraft(eventId, p, p.object_kind === "tag_push");
  if (p.object_kind === "issue") return issuableDraft(eventId, p, "Issue");
  if (p.object_kind === "merge_request") return issuableDraft(eventId, p, "MergeRequest");
  if (p.object_kind === "note") return noteDraft(eventId, p);
  if (p.object_kind === "wiki_page") return wikiDraft(eventId, p);
  if (p.event_name === "project_create") return base(eventId, num(p.project_id), actorId(p), "created");
  if (p.event_name === "project_destroy") return base(eventId, num(p.project_id), actorId(p), "destroyed");
  return null;
}
