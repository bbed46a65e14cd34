/** A message as seen by a subscriber. */
export interface BusMessage<T = unknown> {
  subject: string;
  /** Parsed JSON payload (Dates arrive as ISO strings). */
  data: T;
  /** Unique message id: the publisher's `msgId` when given, else a generated UUID. */
  id: string;
  /** 1 on first delivery, incremented on every redelivery. */
  deliveryCount: number;
  publishedAt: Date;
}

export type BusHandler<T = unknown> = (msg: BusMessage<T>) => Promise<void>;

export interface SubscribeOptions {
  /**
   * Consumer group name. Each message is delivered to ONE subscriber among those
   * sharing a durable name, and every durable name gets every message.
   * Sanitised to [A-Za-z0-9_-] (other characters become `_`).
   */
  durable: string;
  /** Deliveries before a failing message is dropped (error-logged). Default 10. */
  maxDeliver?: number;
  /** Backoff base after a handler failure: base * 2^(n-1), capped at 60s. Default 1000. */
  retryDelayMs?: number;
  /** A handler running longer than this is assumed lost; the message is redelivered. Default 30000. */
  ackWaitMs?: number;
  /**
   * A consumer for this subscriber alone, for as long as it is subscribed (e.g. one process's
   * cache invalidation): it starts at messages published from now on, and unsubscribe() and
   * close() delete it. On NATS the server also deletes one left behind by a process that died,
   * after EPHEMERAL_INACTIVE_MS without a pull. Its `durable` must be unique to the subscriber.
   */
  ephemeral?: boolean;
}

export interface Subscription {
  /**
   * Stops delivery to this subscriber and waits for its in-flight handler. The durable keeps its
   * position (an ephemeral subscriber's consumer is deleted).
   */
  unsubscribe(): Promise<void>;
}

export interface EventBus {
  /** `msgId` dedupes: a second publish with the same id within 2 minutes is dropped. */
  publish<T>(subject: string, data: T, opts?: { msgId?: string }): Promise<void>;
  /** `subject` may use NATS wildcards `*` and `>`. */
  subscribe<T>(subject: string, handler: BusHandler<T>, opts: SubscribeOptions): Promise<Subscription>;
  /** Stops delivery and waits for in-flight handlers. */
  close(): Promise<void>;
}

/** Minimal logger; both `console` and pino loggers fit. */
export interface BusLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
