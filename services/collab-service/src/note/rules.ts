import { randomBytes } from "node:crypto";
import { AccessLevel } from "@quarry/gitlab";
import { badRequest, forbidden, paramError, ServiceError, status } from "@quarry/grpc";
import type { CollabDeps, Tx } from "../deps.ts";
import type { Note, Prisma } from "../generated/prisma/client.ts";
import type { ResolvedNoteable } from "./noteable.ts";

/** Gitlab::Database::MAX_TEXT_SIZE_LIMIT, the Note model's length limit on `note`. */
export const MAX_NOTE_LENGTH = 1_000_000;

/** The rate-limit window of GitLab's notes_create (per user). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** IssuablePolicy's is_project_member: any role in the project (Guest included). */
const isMember = (n: ResolvedNoteable): boolean => n.parent.userId > 0 && n.parent.accessLevel >= AccessLevel.GUEST;

/**
 * `authorize!(:create_note, noteable)`: whoever may read the noteable and is signed in (a public
 * project's non-members too), except that a locked discussion takes comments from project
 * members only (IssuablePolicy's `locked & ~is_project_member`, which outranks administrators).
 */
export function requireCreateNote(n: ResolvedNoteable): void {
  if (n.parent.userId <= 0) throw forbidden();
  if (n.locked && !isMember(n)) throw forbidden();
}

/**
 * NotePolicy's admin_note: never for system notes (`~editable`) nor, on a locked discussion, for
 * non-members; otherwise the author, Maintainers and above (ProjectPolicy) and administrators.
 */
export function requireAdminNote(n: ResolvedNoteable, note: Note): void {
  if (note.system) throw forbidden();
  if (n.locked && !isMember(n)) throw forbidden();
  const p = n.parent;
  if (p.userId > 0 && note.authorId === p.userId) return;
  if (p.isAdmin || (p.userId > 0 && p.accessLevel >= AccessLevel.MAINTAINER)) return;
  throw forbidden();
}

/** GitLab's set_note_created_at: administrators and owners of the project or its group. */
export const mayBackdateNotes = (n: ResolvedNoteable): boolean => n.parent.isAdmin || n.parent.accessLevel >= AccessLevel.OWNER;

/** Ruby's String#length: characters (code points), not UTF-16 units. */
const characters = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/**
 * The Note model's validations on `note` (presence, length), refused as GitLab's
 * `bad_request!("Note #{note.errors.messages}")` prints them (Ruby's Hash#inspect, after
 * bad_request!'s "400 Bad request - "); updates say "Failed to save note" instead of "Note".
 */
export function validateNoteBody(body: string, what: "Note" | "Failed to save note" = "Note"): void {
  const errors: string[] = [];
  if (/^\s*$/u.test(body)) errors.push("can't be blank");
  else if (body.length > MAX_NOTE_LENGTH && characters(body) > MAX_NOTE_LENGTH) errors.push(`is too long (maximum is ${MAX_NOTE_LENGTH} characters)`);
  if (errors.length) throw badRequest(`400 Bad request - ${what} {:note=>[${errors.map((e) => JSON.stringify(e)).join(", ")}]}`);
}

/** A chosen creation time: ISO 8601, after 1970-01-01 (400 otherwise). */
export function parseCreatedAt(value: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  const d = m ? new Date(value) : new Date(Number.NaN);
  // Date takes February 30th for March 2nd: the calendar day must exist.
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  const realDay = day !== null && day.getUTCMonth() === Number(m![2]) - 1 && day.getUTCDate() === Number(m![3]);
  if (!realDay || Number.isNaN(d.getTime()) || d.getTime() <= 0) throw paramError("created_at is invalid");
  return d;
}

/** GitLab's render_api_error! of check_rate_limit!: 429 with no Retry-After header. */
export const rateLimited = () =>
  new ServiceError(status.RESOURCE_EXHAUSTED, { message: { error: "This endpoint has been requested too many times. Try again later." } });

/**
 * Whether the user has used up notes_create_limit: their non-system notes written in the last
 * minute, counted by `recorded_at` (the real write time; `created_at` may be back-dated), so the
 * limit holds across replicas. 0 = unlimited.
 */
export async function overNotesLimit(db: Pick<Tx, "note">, deps: CollabDeps, userId: number): Promise<boolean> {
  const limit = deps.notesCreateLimit ?? deps.settings.current.notes_create_limit;
  if (limit <= 0) return false;
  const since = new Date(Date.now() - RATE_LIMIT_WINDOW_MS);
  return (await db.note.count({ where: { authorId: userId, system: false, recordedAt: { gte: since } } })) >= limit;
}

/** A new thread's id: 40 hex characters, like GitLab's Discussion.build_discussion_id (a SHA1 of random input). */
export const newDiscussionId = (): string => randomBytes(20).toString("hex");

/** GitLab's order_options_with_tie_breaker: the chosen column, then id, in the same direction. */
export function noteOrder(orderBy: string, sort: string): Prisma.NoteOrderByWithRelationInput[] {
  const dir = sort === "asc" ? "asc" : "desc";
  return [orderBy === "updated_at" ? { updatedAt: dir } : { createdAt: dir }, { id: dir }];
}
