import type { MessagePort } from "node:worker_threads";
import type { BusHandler, BusMessage, EventBus, SubscribeOptions, Subscription } from "./bus.ts";

/**
 * The embedded mode runs some services in worker threads (their own event loops, the second
 * core) while its one in-process bus lives on the main thread. A PortBus is that bus as seen
 * from a worker: publish and subscribe travel over a MessagePort to `serveBusOnPort`, which
 * calls the real bus; deliveries come back and are acknowledged only when the worker's handler
 * settles, so redelivery, backoff, durables and ephemerals behave exactly as on the real bus.
 */

/** Worker → main. */
type Request =
  | { t: "publish"; call: number; subject: string; data: unknown; msgId?: string }
  | { t: "subscribe"; call: number; sub: number; subject: string; opts: SubscribeOptions }
  | { t: "unsubscribe"; call: number; sub: number }
  | { t: "handled"; delivery: number; error?: string };

type WithoutCall<T> = T extends unknown ? Omit<T, "call"> : never;

/** Main → worker. */
type Reply = { t: "reply"; call: number; error?: string } | { t: "deliver"; delivery: number; sub: number; msg: BusMessage };

export class PortBus implements EventBus {
  private nextCall = 1;
  private nextSub = 1;
  private readonly calls = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  private readonly handlers = new Map<number, BusHandler<unknown>>();
  private readonly inflight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly port: MessagePort) {
    port.on("message", (m: Reply) => {
      if (m.t === "reply") {
        const call = this.calls.get(m.call);
        this.calls.delete(m.call);
        if (m.error === undefined) call?.resolve();
        else call?.reject(new Error(m.error));
      } else {
        this.deliver(m.delivery, m.sub, m.msg);
      }
    });
  }

  async publish<T>(subject: string, data: T, opts?: { msgId?: string }): Promise<void> {
    if (this.closed) throw new Error("bus: closed");
    // JSON round trip: the same payload rules as the real bus (Dates become ISO strings).
    await this.call({ t: "publish", subject, data: JSON.parse(JSON.stringify(data)), msgId: opts?.msgId });
  }

  async subscribe<T>(subject: string, handler: BusHandler<T>, opts: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error("bus: closed");
    const sub = this.nextSub++;
    this.handlers.set(sub, handler as BusHandler<unknown>);
    try {
      await this.call({ t: "subscribe", sub, subject, opts });
    } catch (err) {
      this.handlers.delete(sub);
      throw err;
    }
    return {
      unsubscribe: async () => {
        if (!this.handlers.delete(sub)) return;
        await this.call({ t: "unsubscribe", sub });
      },
    };
  }

  /** Unsubscribes everything this thread subscribed (durables keep their position) and waits for running handlers. */
  async close(): Promise<void> {
    if (this.closed) return;
    const subs = [...this.handlers.keys()];
    this.handlers.clear();
    await Promise.allSettled(subs.map((sub) => this.call({ t: "unsubscribe", sub })));
    this.closed = true;
    await Promise.allSettled([...this.inflight]);
  }

  private call(req: WithoutCall<Exclude<Request, { t: "handled" }>>): Promise<void> {
    const call = this.nextCall++;
    return new Promise<void>((resolve, reject) => {
      this.calls.set(call, { resolve, reject });
      this.port.postMessage({ ...req, call });
    });
  }

  private deliver(delivery: number, sub: number, msg: BusMessage): void {
    const handler = this.handlers.get(sub);
    const run = (async () => {
      let error: string | undefined;
      try {
        if (!handler) throw new Error("bus: unsubscribed");
        await handler(msg);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      this.port.postMessage({ t: "handled", delivery, error } satisfies Request);
    })();
    this.inflight.add(run);
    void run.finally(() => this.inflight.delete(run));
  }
}

/**
 * The main thread's side of a PortBus: runs its requests against `bus`. Returns a function that
 * ends every subscription the worker made (when it stops or dies); deliveries still waiting for
 * the worker then fail and are redelivered to the durable's other members or later.
 */
export function serveBusOnPort(bus: EventBus, port: MessagePort): () => Promise<void> {
  const subscriptions = new Map<number, Subscription>();
  const waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  let nextDelivery = 1;
  let open = true;
  const reply = (call: number, err?: unknown) =>
    open && port.postMessage({ t: "reply", call, error: err === undefined ? undefined : err instanceof Error ? err.message : String(err) } satisfies Reply);

  port.on("message", async (m: Request) => {
    switch (m.t) {
      case "publish":
        await bus.publish(m.subject, m.data, m.msgId === undefined ? undefined : { msgId: m.msgId }).then(
          () => reply(m.call),
          (err) => reply(m.call, err),
        );
        return;
      case "subscribe":
        try {
          const subscription = await bus.subscribe(
            m.subject,
            (msg) =>
              new Promise<void>((resolve, reject) => {
                if (!open) return reject(new Error("bus: worker gone"));
                const delivery = nextDelivery++;
                waiting.set(delivery, { resolve, reject });
                port.postMessage({ t: "deliver", delivery, sub: m.sub, msg } satisfies Reply);
              }),
            m.opts,
          );
          subscriptions.set(m.sub, subscription);
          reply(m.call);
        } catch (err) {
          reply(m.call, err);
        }
        return;
      case "unsubscribe": {
        const subscription = subscriptions.get(m.sub);
        subscriptions.delete(m.sub);
        await subscription?.unsubscribe().catch(() => undefined);
        reply(m.call);
        return;
      }
      case "handled": {
        const w = waiting.get(m.delivery);
        waiting.delete(m.delivery);
        if (m.error === undefined) w?.resolve();
        else w?.reject(new Error(m.error));
        return;
      }
    }
  });

  return async () => {
    open = false;
    for (const w of waiting.values()) w.reject(new Error("bus: worker gone"));
    waiting.clear();
    const all = [...subscriptions.values()];
    subscriptions.clear();
    await Promise.allSettled(all.map((s) => s.unsubscribe()));
    port.close();
  };
}
