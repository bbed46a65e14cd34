// Helpers shared by both implementations so they validate and behave identically.
import type { BusLogger, SubscribeOptions } from "./bus.ts";

export const SUBJECT_PREFIX = "quarry.";
export const DEDUPE_WINDOW_MS = 2 * 60_000;
export const MAX_RETRY_DELAY_MS = 60_000;

const LITERAL_TOKEN = /^[^\s.*>]+$/;

/** Publish subjects: under `quarry.`, no wildcards, no empty tokens or whitespace. */
export function assertPublishSubject(subject: string): void {
  if (!subject.startsWith(SUBJECT_PREFIX)) {
    throw new Error(`bus: subject "${subject}" must start with "${SUBJECT_PREFIX}"`);
  }
  if (!subject.split(".").every((t) => LITERAL_TOKEN.test(t))) {
    throw new Error(`bus: invalid publish subject "${subject}"`);
  }
}

/** Subscribe subjects: like publish subjects but `*` tokens and a trailing `>` are allowed. */
export function assertSubscribeSubject(subject: string): void {
  if (!subject.startsWith(SUBJECT_PREFIX)) {
    throw new Error(`bus: subject "${subject}" must start with "${SUBJECT_PREFIX}"`);
  }
  const tokens = subject.split(".");
  const ok = tokens.every((t, i) => LITERAL_TOKEN.test(t) || t === "*" || (t === ">" && i === tokens.length - 1));
  if (!ok) throw new Error(`bus: invalid subscribe subject "${subject}"`);
}

/** NATS subject matching (`*` = one token, `>` = one or more trailing tokens). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const s = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    const t = p[i];
    if (t === ">") return s.length > i;
    if (i >= s.length) return false;
    if (t !== "*" && t !== s[i]) return false;
  }
  return p.length === s.length;
}

/** JetStream durable names only allow a restricted charset; both impls key groups by this. */
export function sanitizeDurable(durable: string): string {
  const name = durable.replace(/[^A-Za-z0-9_-]/g, "_");
  if (name.length === 0) throw new Error("bus: durable name must not be empty");
  return name;
}

export interface ResolvedSubscribeOptions {
  name: string;
  maxDeliver: number;
  retryDelayMs: number;
  ackWaitMs: number;
  ephemeral: boolean;
}

export function resolveSubscribeOptions(opts: SubscribeOptions): ResolvedSubscribeOptions {
  const r = {
    name: sanitizeDurable(opts.durable),
    maxDeliver: opts.maxDeliver ?? 10,
    retryDelayMs: opts.retryDelayMs ?? 1000,
    ackWaitMs: opts.ackWaitMs ?? 30_000,
    ephemeral: opts.ephemeral ?? false,
  };
  if (!Number.isInteger(r.maxDeliver) || r.maxDeliver < 1) throw new Error("bus: maxDeliver must be an integer >= 1");
  if (!(r.retryDelayMs >= 0)) throw new Error("bus: retryDelayMs must be >= 0");
  // A tiny ack wait would redeliver messages whose handlers are merely slow.
  if (!(r.ackWaitMs >= 100)) throw new Error("bus: ackWaitMs must be >= 100");
  return r;
}

/** Delay before redelivering after the `deliveryCount`-th attempt failed. */
export function retryDelay(baseMs: number, deliveryCount: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, deliveryCount - 1), MAX_RETRY_DELAY_MS);
}

/** JSON-encode a payload; `undefined` becomes `null` so consumers always get valid JSON. */
export function encodeJson(data: unknown): string {
  return JSON.stringify(data) ?? "null";
}

export const consoleLogger: BusLogger = {
  warn: (obj, msg) => console.warn(`[bus] ${msg}`, obj),
  error: (obj, msg) => console.error(`[bus] ${msg}`, obj),
};

export function errorInfo(err: unknown): { err: string } {
  return { err: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
