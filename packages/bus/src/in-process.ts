import { randomUUID } from "node:crypto";
import type { BusHandler, BusLogger, BusMessage, EventBus, SubscribeOptions, Subscription } from "./bus.ts";
import {
  DEDUPE_WINDOW_MS,
  assertPublishSubject,
  assertSubscribeSubject,
  consoleLogger,
  encodeJson,
  errorInfo,
  resolveSubscribeOptions,
  retryDelay,
  subjectMatches,
} from "./internal.ts";

export interface InProcessBusOptions {
  /** Messages retained for late durables (oldest dropped first). Default 10,000. */
  maxMessages?: number;
  log?: BusLogger;
}

interface Entry {
  seq: number;
  subject: string;
  id: string;
  // Stored serialised: every delivery parses its own copy, so handlers can't mutate each other's data.
  json: string;
  publishedAt: number;
}

interface Delivery {
  entry: Entry;
  deliveryCount: number;
}

interface Member {
  handler: BusHandler<unknown>;
  busy: boolean;
  /** Resolves when the current handler (if any) settles. */
  idle: Promise<void>;
}

/** Durable consumer state, keyed by sanitised durable name (mirrors a JetStream consumer). */
interface Group {
  name: string;
  subject: string;
  maxDeliver: number;
  retryDelayMs: number;
  ackWaitMs: number;
  /** Next log sequence this group has not yet looked at. */
  cursor: number;
  /** Redeliveries whose backoff has elapsed; served before new messages. */
  ready: Delivery[];
  timers: Set<NodeJS.Timeout>;
  members: Member[];
  rr: number;
  pumpScheduled: boolean;
}

/**
 * EventBus for the single-process embedded mode. Same contract as the JetStream bus,
 * but state (log, cursors, dedupe ids) lives in memory and is lost on restart.
 */
export class InProcessBus implements EventBus {
  private readonly maxMessages: number;
  private readonly log: BusLogger;
  private entries: Entry[] = [];
  private nextSeq = 1;
  private readonly dedupe = new Map<string, number>();
  private readonly groups = new Map<string, Group>();
  private readonly inflight = new Set<Promise<void>>();
  private closed = false;

  constructor(opts: InProcessBusOptions = {}) {
    this.maxMessages = opts.maxMessages ?? 10_000;
    this.log = opts.log ?? consoleLogger;
  }

  async publish<T>(subject: string, data: T, opts?: { msgId?: string }): Promise<void> {
    if (this.closed) throw new Error("bus: closed");
    assertPublishSubject(subject);
    const now = Date.now();
    this.pruneDedupe(now);
    const msgId = opts?.msgId;
    if (msgId !== undefined) {
      if (this.dedupe.has(msgId)) return;
      this.dedupe.set(msgId, now + DEDUPE_WINDOW_MS);
    }
    const entry: Entry = {
      seq: this.nextSeq++,
      subject,
      id: msgId ?? randomUUID(),
      json: encodeJson(data),
      publishedAt: now,
    };
    this.entries.push(entry);
    if (this.entries.length > this.maxMessages) this.entries.splice(0, this.entries.length - this.maxMessages);
    for (const g of this.groups.values()) {
      if (subjectMatches(g.subject, subject)) this.schedulePump(g);
    }
  }

  async subscribe<T>(subject: string, handler: BusHandler<T>, opts: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error("bus: closed");
    assertSubscribeSubject(subject);
    const o = resolveSubscribeOptions(opts);
    let g = this.groups.get(o.name);
    if (!g) {
      g = {
        name: o.name,
        subject,
        maxDeliver: o.maxDeliver,
        retryDelayMs: o.retryDelayMs,
        ackWaitMs: o.ackWaitMs,
        // deliver-all: a new durable starts at the oldest retained message; an ephemeral one at the next.
        cursor: o.ephemeral ? this.nextSeq : this.firstSeq(),
        ready: [],
        timers: new Set(),
        members: [],
        rr: 0,
        pumpScheduled: false,
      };
      this.groups.set(o.name, g);
    } else {
      if (g.subject !== subject) {
        // One durable = one filter. Live members with another filter would silently split the stream.
        if (g.members.length > 0) {
          throw new Error(`bus: durable "${o.name}" is already subscribed to "${g.subject}"`);
        }
        g.subject = subject;
      }
      // Latest subscriber's settings win, like a JetStream consumer update.
      g.maxDeliver = o.maxDeliver;
      g.retryDelayMs = o.retryDelayMs;
      g.ackWaitMs = o.ackWaitMs;
    }
    const member: Member = { handler: handler as BusHandler<unknown>, busy: false, idle: Promise.resolve() };
    g.members.push(member);
    this.schedulePump(g);
    const group = g;
    let active = true;
    return {
      unsubscribe: async () => {
        if (active) {
          active = false;
          const i = group.members.indexOf(member);
          if (i >= 0) group.members.splice(i, 1);
        }
        await member.idle;
        // An ephemeral subscriber's consumer goes with its last member (as on NATS).
        if (o.ephemeral && group.members.length === 0 && this.groups.get(group.name) === group) {
          for (const t of group.timers) clearTimeout(t);
          this.groups.delete(group.name);
        }
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const g of this.groups.values()) {
      for (const t of g.timers) clearTimeout(t);
      g.timers.clear();
      g.members = [];
    }
    await Promise.allSettled([...this.inflight]);
  }

  private firstSeq(): number {
    return this.entries[0]?.seq ?? this.nextSeq;
  }

  private pruneDedupe(now: number): void {
    // Insertion order == expiry order, so stop at the first live entry.
    for (const [id, expires] of this.dedupe) {
      if (expires > now) break;
      this.dedupe.delete(id);
    }
  }

  // Deferred so handlers never run synchronously inside publish()/subscribe().
  private schedulePump(g: Group): void {
    if (g.pumpScheduled || this.closed) return;
    g.pumpScheduled = true;
    queueMicrotask(() => {
      g.pumpScheduled = false;
      this.pump(g);
    });
  }

  private pump(g: Group): void {
    while (!this.closed) {
      const member = this.idleMember(g);
      if (!member) return;
      const d = this.take(g);
      if (!d) return;
      this.dispatch(g, member, d);
    }
  }

  private idleMember(g: Group): Member | undefined {
    const n = g.members.length;
    for (let k = 0; k < n; k++) {
      const m = g.members[(g.rr + k) % n];
      if (m && !m.busy) {
        g.rr = (g.rr + k + 1) % n;
        return m;
      }
    }
    return undefined;
  }

  private take(g: Group): Delivery | undefined {
    const redelivery = g.ready.shift();
    if (redelivery) return redelivery;
    const first = this.firstSeq();
    if (g.cursor < first) g.cursor = first; // older messages were dropped by the retention cap
    while (g.cursor < this.nextSeq) {
      const entry = this.entries[g.cursor - first];
      g.cursor++;
      if (entry && subjectMatches(g.subject, entry.subject)) return { entry, deliveryCount: 1 };
    }
    return undefined;
  }

  private dispatch(g: Group, member: Member, d: Delivery): void {
    const msg: BusMessage<unknown> = {
      subject: d.entry.subject,
      data: JSON.parse(d.entry.json) as unknown,
      id: d.entry.id,
      deliveryCount: d.deliveryCount,
      publishedAt: new Date(d.entry.publishedAt),
    };
    // Exactly one of {handler settles, ack wait expires} decides the message's fate.
    let decided = false;
    const ackTimer = setTimeout(() => {
      if (decided) return;
      decided = true;
      this.log.warn({ subject: msg.subject, id: msg.id, durable: g.name }, "handler exceeded ackWait; redelivering");
      this.fail(g, d, new Error("ack wait exceeded"), 0);
    }, g.ackWaitMs);
    ackTimer.unref();

    member.busy = true;
    const run = (async () => {
      try {
        await member.handler(msg);
        if (!decided) decided = true;
      } catch (err) {
        if (!decided) {
          decided = true;
          this.fail(g, d, err, retryDelay(g.retryDelayMs, d.deliveryCount));
        }
      } finally {
        clearTimeout(ackTimer);
      }
    })();
    const done = run.then(() => {
      member.busy = false;
      this.inflight.delete(done);
      this.pump(g);
    });
    member.idle = done;
    this.inflight.add(done);
  }

  private fail(g: Group, d: Delivery, err: unknown, delayMs: number): void {
    if (this.closed) return;
    if (d.deliveryCount >= g.maxDeliver) {
      this.log.error(
        { subject: d.entry.subject, id: d.entry.id, durable: g.name, deliveryCount: d.deliveryCount, ...errorInfo(err) },
        "message dropped after maxDeliver attempts",
      );
      return;
    }
    this.log.warn(
      { subject: d.entry.subject, id: d.entry.id, durable: g.name, deliveryCount: d.deliveryCount, ...errorInfo(err) },
      `handler failed; redelivering in ${delayMs}ms`,
    );
    const timer = setTimeout(() => {
      g.timers.delete(timer);
      g.ready.push({ entry: d.entry, deliveryCount: d.deliveryCount + 1 });
      this.pump(g);
    }, delayMs);
    timer.unref();
    g.timers.add(timer);
  }
}
