import { createHash } from "node:crypto";

/** What grouping and listing need from one Sentry event payload. */
export interface EventSummary {
  eventId: string;
  name: string;
  description: string;
  actor: string;
  platform: string;
  level: string;
  environment: string;
  occurredAt: Date;
  fingerprint: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/** The exception the event is about: Sentry lists chained causes first, the raised one last. */
function mainException(event: Json): Json | undefined {
  const exception = event.exception;
  const values = Array.isArray(exception) ? exception : obj(exception)?.values;
  if (!Array.isArray(values) || values.length === 0) return undefined;
  return obj(values[values.length - 1]);
}

/** The frame that raised: Sentry orders frames oldest first, so the last in-app frame (else the last). */
function topFrame(exception: Json | undefined): Json | undefined {
  const frames = obj(exception?.stacktrace)?.frames;
  if (!Array.isArray(frames) || frames.length === 0) return undefined;
  const all = frames.map(obj).filter((f): f is Json => f !== undefined);
  return [...all].reverse().find((f) => f.in_app === true) ?? all[all.length - 1];
}

function messageOf(event: Json): string {
  const m = event.message;
  if (typeof m === "string") return m;
  const o = obj(m) ?? obj(event.logentry);
  return str(o?.formatted) || str(o?.message);
}

/** Sentry timestamps are seconds since the epoch (a number) or RFC 3339 text. */
function timeOf(raw: unknown, fallback: Date): Date {
  const d = typeof raw === "number" ? new Date(raw * 1000) : typeof raw === "string" ? new Date(raw) : fallback;
  // Outside years 1…9999 (PostgreSQL's and ISO 8601's plain range) the time is not believable.
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999 ? fallback : d;
}

/**
 * Summarises an event. Grouping: the event's own `fingerprint` when it sets one (other than the lone
 * `{{ default }}`), otherwise exception type + message + raising frame (function and file).
 */
export function summarizeEvent(event: Json, receivedAt: Date): EventSummary {
  const exception = mainException(event);
  const frame = topFrame(exception);
  const name = str(exception?.type);
  const description = str(exception?.value) || messageOf(event);
  const fn = str(frame?.function);
  const where = str(frame?.module) || str(frame?.filename);
  const actor = fn && where ? `${fn}(${where})` : fn || where || str(event.culprit) || str(event.transaction);
  const custom = Array.isArray(event.fingerprint) ? event.fingerprint.map(str) : [];
  const key = custom.length > 0 && !(custom.length === 1 && custom[0] === "{{ default }}") ? ["custom", ...custom] : ["default", name, description, fn, where];
  return {
    eventId: str(event.event_id),
    name,
    description,
    actor,
    platform: str(event.platform),
    level: str(event.level) || "error",
    environment: str(event.environment),
    occurredAt: timeOf(event.timestamp, receivedAt),
    fingerprint: createHash("sha256").update(JSON.stringify(key)).digest("hex"),
  };
}
