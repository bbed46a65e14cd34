import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type StreamConfig,
} from "@nats-io/jetstream";
import { connect, nanos, type NatsConnection } from "@nats-io/transport-node";
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
  type ResolvedSubscribeOptions,
} from "./internal.ts";

export interface NatsBusOptions {
  /** Comma-separated server URLs, e.g. "nats://127.0.0.1:4222". */
  servers: string;
  /** Stream name. Default "QUARRY". */
  stream?: string;
  /** Subjects captured by the stream. Default ["quarry.>"] (tests use a private prefix). */
  subjects?: string[];
  /** Retention of stream messages. Default 7 days. */
  maxAgeMs?: number;
  /** Connection name shown in NATS monitoring. */
  name?: string;
  /**
   * How long the server waits before it hands a message held by a subscriber that stopped
   * answering (its process was killed, its connection lost) to another. Default 30 s. A live
   * handler keeps its message past this with in-progress acks, up to its own `ackWaitMs`.
   */
  livenessMs?: number;
  log?: BusLogger;
}

export const DEFAULT_LIVENESS_MS = 30_000;

const STREAM_NAME_IN_USE = 10058;
/**
 * The server deletes an ephemeral subscriber's consumer after this long without a pull request
 * (its process died without unsubscribing); a live consume() pulls far more often.
 */
export const EPHEMERAL_INACTIVE_MS = 5 * 60_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface NatsSub {
  name: string;
  subject: string;
  opts: ResolvedSubscribeOptions;
  handler: BusHandler<unknown>;
  stopped: boolean;
  messages: ConsumerMessages | null;
  abort: AbortController;
  loop: Promise<void>;
}

/** EventBus backed by a NATS JetStream stream with durable pull consumers. */
export class NatsJetStreamBus implements EventBus {
  private readonly subs = new Set<NatsSub>();
  private closed = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    readonly stream: string,
    private readonly log: BusLogger,
    private readonly livenessMs: number,
  ) {}

  static async connect(opts: NatsBusOptions): Promise<NatsJetStreamBus> {
    const nc = await connect({
      servers: opts.servers
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
      name: opts.name,
    });
    try {
      const jsm = await jetstreamManager(nc);
      const stream = opts.stream ?? "QUARRY";
      await ensureStream(jsm, {
        name: stream,
        subjects: opts.subjects ?? ["quarry.>"],
        max_age: nanos(opts.maxAgeMs ?? 7 * 24 * 3600_000),
        duplicate_window: nanos(DEDUPE_WINDOW_MS),
      });
      return new NatsJetStreamBus(nc, jetstream(nc), jsm, stream, opts.log ?? consoleLogger, opts.livenessMs ?? DEFAULT_LIVENESS_MS);
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw err;
    }
  }

  async publish<T>(subject: string, data: T, opts?: { msgId?: string }): Promise<void> {
    if (this.closed) throw new Error("bus: closed");
    assertPublishSubject(subject);
    // Always send a msgID: it becomes BusMessage.id and makes client retries idempotent.
    // A duplicate within the stream's duplicate_window is acked with `duplicate: true` and not stored.
    await this.js.publish(subject, encoder.encode(encodeJson(data)), { msgID: opts?.msgId ?? randomUUID() });
  }

  async subscribe<T>(subject: string, handler: BusHandler<T>, opts: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error("bus: closed");
    assertSubscribeSubject(subject);
    const o = resolveSubscribeOptions(opts);
    for (const s of this.subs) {
      if (s.name === o.name && s.subject !== subject) {
        throw new Error(`bus: durable "${o.name}" is already subscribed to "${s.subject}"`);
      }
    }
    await this.ensureConsumer(subject, o);
    const consumer = await this.js.consumers.get(this.stream, o.name);
    // max_messages 1: never hold messages another member of the durable could be processing.
    const messages = await consumer.consume({ max_messages: 1 });
    const sub: NatsSub = {
      name: o.name,
      subject,
      opts: o,
      handler: handler as BusHandler<unknown>,
      stopped: false,
      messages,
      abort: new AbortController(),
      loop: Promise.resolve(),
    };
    sub.loop = this.run(sub);
    this.subs.add(sub);
    return { unsubscribe: () => this.stop(sub) };
  }

  /** Deletes the stream, its messages and consumers (tests on private streams clean up with it). */
  async deleteStream(): Promise<void> {
    await this.jsm.streams.delete(this.stream);
  }

  /** The names of the stream's consumers (durable and ephemeral subscribers' alike). */
  async consumerNames(): Promise<string[]> {
    const names: string[] = [];
    for await (const c of this.jsm.consumers.list(this.stream)) names.push(c.name);
    return names;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subs].map((s) => this.stop(s)));
    // drain flushes pending acks/naks before closing the socket.
    await this.nc.drain().catch(() => undefined);
  }

  private async stop(sub: NatsSub): Promise<void> {
    const first = !sub.stopped;
    if (first) {
      sub.stopped = true;
      sub.abort.abort();
      sub.messages?.stop();
    }
    await sub.loop;
    this.subs.delete(sub);
    if (first && sub.opts.ephemeral && ![...this.subs].some((s) => s.name === sub.name)) await this.deleteConsumer(sub.name);
  }

  /** Deletes an ephemeral subscriber's consumer; one already gone is fine. */
  private async deleteConsumer(name: string): Promise<void> {
    try {
      await this.jsm.consumers.delete(this.stream, name);
    } catch (err) {
      if (!isApiError(err, JetStreamApiCodes.ConsumerNotFound)) this.log.warn({ durable: name, ...errorInfo(err) }, "ephemeral consumer not deleted");
    }
  }

  private async run(sub: NatsSub): Promise<void> {
    while (!sub.stopped) {
      try {
        const messages = sub.messages ?? (await this.restartConsume(sub));
        if (!messages) return;
        for await (const m of messages) {
          if (sub.stopped) {
            // Buffered after unsubscribe: hand it back now instead of waiting for ack_wait.
            m.nak();
            continue;
          }
          await this.handle(sub, m);
        }
      } catch (err) {
        if (sub.stopped) return;
        this.log.warn({ durable: sub.name, ...errorInfo(err) }, "consume loop failed; restarting");
      }
      sub.messages = null;
      if (sub.stopped || this.nc.isClosed()) return;
      // The iterator ended on its own (e.g. heartbeats missed): back off, then resume.
      try {
        await sleep(1000, undefined, { signal: sub.abort.signal });
      } catch {
        return;
      }
    }
  }

  private async restartConsume(sub: NatsSub): Promise<ConsumerMessages | null> {
    const consumer = await this.js.consumers.get(this.stream, sub.name);
    if (sub.stopped) return null;
    sub.messages = await consumer.consume({ max_messages: 1 });
    if (sub.stopped) sub.messages.stop();
    return sub.messages;
  }

  private async handle(sub: NatsSub, m: JsMsg): Promise<void> {
    const deliveryCount = m.info.deliveryCount;
    const id = m.headers?.get("Nats-Msg-Id") || `${this.stream}:${m.seq}`;
    let data: unknown;
    try {
      data = JSON.parse(decoder.decode(m.data));
    } catch (err) {
      // Retrying cannot fix a malformed payload.
      this.log.error({ subject: m.subject, id, durable: sub.name, ...errorInfo(err) }, "invalid JSON payload; dropped");
      m.term();
      return;
    }
    const msg: BusMessage<unknown> = { subject: m.subject, data, id, deliveryCount, publishedAt: m.time };
    const stopKeepingAlive = this.keepAlive(sub, m);
    try {
      await sub.handler(msg);
    } catch (err) {
      stopKeepingAlive();
      const ctx = { subject: m.subject, id, durable: sub.name, deliveryCount, ...errorInfo(err) };
      if (deliveryCount >= sub.opts.maxDeliver) {
        this.log.error(ctx, "message dropped after maxDeliver attempts");
        m.term();
      } else {
        const delay = retryDelay(sub.opts.retryDelayMs, deliveryCount);
        this.log.warn(ctx, `handler failed; redelivering in ${delay}ms`);
        m.nak(delay);
      }
      return;
    }
    stopKeepingAlive();
    // Wait for the server to confirm the ack so unsubscribe()/close() never lose one.
    try {
      await m.ackAck();
    } catch (err) {
      this.log.warn({ subject: m.subject, id, durable: sub.name, ...errorInfo(err) }, "ack not confirmed");
    }
  }

  /**
   * The server's ack wait is the liveness window, not the handler's limit: a message held by a
   * process that died returns to the other subscribers within `livenessMs`, however long
   * `ackWaitMs` is (ci-service's push consumer allows 120 s, mirror syncs the push timeout).
   */
  private serverAckWaitMs(o: ResolvedSubscribeOptions): number {
    return Math.min(o.ackWaitMs, this.livenessMs);
  }

  /**
   * While the handler runs, tells the server it is alive (in-progress acks) every third of the
   * liveness window, until its own `ackWaitMs` would be passed: then the server takes the message
   * back as it would without this. Returns the stop.
   */
  private keepAlive(sub: NatsSub, m: JsMsg): () => void {
    const window = this.serverAckWaitMs(sub.opts);
    if (window >= sub.opts.ackWaitMs) return () => {};
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started + window > sub.opts.ackWaitMs) return clearInterval(timer);
      try {
        m.working();
      } catch {
        // The connection is closed: the server takes the message back, as from a dead process.
      }
    }, window / 3);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async ensureConsumer(subject: string, o: ResolvedSubscribeOptions): Promise<void> {
    const wanted = { filter_subject: subject, max_deliver: o.maxDeliver, ack_wait: nanos(this.serverAckWaitMs(o)) };
    for (let attempt = 0; ; attempt++) {
      let existing: ConsumerConfig | null = null;
      try {
        existing = (await this.jsm.consumers.info(this.stream, o.name)).config;
      } catch (err) {
        if (!isApiError(err, JetStreamApiCodes.ConsumerNotFound)) throw err;
      }
      if (existing) {
        const same = existing.filter_subject === wanted.filter_subject && existing.max_deliver === wanted.max_deliver && existing.ack_wait === wanted.ack_wait;
        // Latest subscriber's settings win, matching InProcessBus.
        if (!same) await this.jsm.consumers.update(this.stream, o.name, wanted);
        return;
      }
      try {
        await this.jsm.consumers.add(this.stream, {
          durable_name: o.name,
          ack_policy: AckPolicy.Explicit,
          // An ephemeral subscriber wants what happens from now on, and no consumer left behind.
          ...(o.ephemeral ? { deliver_policy: DeliverPolicy.New, inactive_threshold: nanos(EPHEMERAL_INACTIVE_MS) } : { deliver_policy: DeliverPolicy.All }),
          ...wanted,
        });
        return;
      } catch (err) {
        // Another process may have created it concurrently: re-read and reconcile once.
        if (attempt >= 1) throw err;
      }
    }
  }
}

function isApiError(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code;
}

/** Create the stream, or update it if its managed settings differ. Safe to race from many services. */
async function ensureStream(jsm: JetStreamManager, cfg: Pick<StreamConfig, "name" | "subjects" | "max_age" | "duplicate_window">): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const info = await jsm.streams.info(cfg.name);
      const c = info.config;
      const same =
        c.max_age === cfg.max_age &&
        c.duplicate_window === cfg.duplicate_window &&
        c.subjects.length === cfg.subjects.length &&
        cfg.subjects.every((s) => c.subjects.includes(s));
      if (!same) await jsm.streams.update(cfg.name, cfg);
      return;
    } catch (err) {
      if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
    }
    try {
      await jsm.streams.add({
        ...cfg,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
      });
      return;
    } catch (err) {
      if (attempt >= 1 || !isApiError(err, STREAM_NAME_IN_USE)) throw err;
    }
  }
}
