// One contract suite, run against every EventBus implementation.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { MessageChannel } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusLogger, BusMessage, EventBus } from "./bus.ts";
import { InProcessBus } from "./in-process.ts";
import { NatsJetStreamBus } from "./nats.ts";
import { PortBus, serveBusOnPort } from "./port-bus.ts";

const NATS_URL = process.env.NATS_URL;
if (!NATS_URL) console.warn("NATS_URL is not set: NatsJetStreamBus contract cases are SKIPPED");

interface LogEntry {
  level: "warn" | "error";
  obj: Record<string, unknown>;
  msg: string;
}

interface Harness {
  /** Subject prefix private to this run, e.g. "quarry.t1a2b3c". */
  prefix: string;
  /** The shared bus used by most cases. */
  bus: EventBus;
  /** A second, independent bus (another "process") on the same backing store, where that makes sense. */
  newBus(): Promise<EventBus>;
  logs: LogEntry[];
  teardown(): Promise<void>;
}

interface Impl {
  name: string;
  skip: boolean;
  setup(): Promise<Harness>;
}

function captureLog(): { log: BusLogger; logs: LogEntry[] } {
  const logs: LogEntry[] = [];
  return {
    logs,
    log: {
      warn: (obj, msg) => logs.push({ level: "warn", obj: obj as Record<string, unknown>, msg }),
      error: (obj, msg) => logs.push({ level: "error", obj: obj as Record<string, unknown>, msg }),
    },
  };
}

const rand = () => randomUUID().replace(/-/g, "").slice(0, 10);

const impls: Impl[] = [
  {
    name: "InProcessBus",
    skip: false,
    async setup() {
      const { log, logs } = captureLog();
      const bus = new InProcessBus({ log });
      const extra: EventBus[] = [];
      return {
        prefix: `quarry.t${rand()}`,
        bus,
        logs,
        // In-process state is per instance; a "second process" is a fresh bus.
        async newBus() {
          const b = new InProcessBus({ log });
          extra.push(b);
          return b;
        },
        async teardown() {
          await Promise.all([bus, ...extra].map((b) => b.close()));
        },
      };
    },
  },
  {
    // The embedded mode's worker threads: a PortBus over a MessageChannel to an InProcessBus.
    name: "PortBus",
    skip: false,
    async setup() {
      const { log, logs } = captureLog();
      const main = new InProcessBus({ log });
      const stops: (() => Promise<void>)[] = [];
      const open = () => {
        const { port1, port2 } = new MessageChannel();
        stops.push(serveBusOnPort(main, port2));
        return new PortBus(port1);
      };
      const bus = open();
      const extra: EventBus[] = [];
      return {
        prefix: `quarry.t${rand()}`,
        bus,
        logs,
        // Another thread on the same main-thread bus.
        async newBus() {
          const b = open();
          extra.push(b);
          return b;
        },
        async teardown() {
          await Promise.all([bus, ...extra].map((b) => b.close()));
          await Promise.all(stops.map((stop) => stop()));
          await main.close();
        },
      };
    },
  },
  {
    name: "NatsJetStreamBus",
    skip: !NATS_URL,
    async setup() {
      const id = rand();
      const servers = NATS_URL ?? "";
      const stream = `T_${id}`;
      const prefix = `quarry.t${id}`;
      const { log, logs } = captureLog();
      const open = () => NatsJetStreamBus.connect({ servers, stream, subjects: [`${prefix}.>`], name: `bus-test-${id}`, log });
      const bus = await open();
      const extra: EventBus[] = [];
      return {
        prefix,
        bus,
        logs,
        async newBus() {
          const b = await open();
          extra.push(b);
          return b;
        },
        async teardown() {
          await Promise.all([bus, ...extra].map((b) => b.close()));
          const nc = await connect({ servers });
          try {
            const jsm = await jetstreamManager(nc);
            await jsm.streams.delete(stream);
          } finally {
            await nc.close();
          }
        },
      };
    },
  },
];

/** Polls every 20ms; fails with a description after `timeoutMs`. */
async function waitFor(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function collector<T = unknown>() {
  const msgs: BusMessage<T>[] = [];
  return {
    msgs,
    handler: async (m: BusMessage<T>) => {
      msgs.push(m);
    },
    has: (pred: (m: BusMessage<T>) => boolean) => msgs.some(pred),
  };
}

describe.each(impls)("EventBus contract: $name", (impl) => {
  const test = it.skipIf(impl.skip);
  let h: Harness;
  let bus: EventBus;
  const subj = (s: string) => `${h.prefix}.${s}`;
  const durable = (s: string) => `${s}-${rand()}`;

  beforeAll(async () => {
    if (impl.skip) return;
    h = await impl.setup();
    bus = h.bus;
  });

  afterAll(async () => {
    if (!impl.skip) await h.teardown();
  });

  test("(a) a new durable receives messages published before it subscribed, in order", async () => {
    const when = new Date("2024-01-02T03:04:05.000Z");
    await bus.publish(subj("a.ev"), { n: 1, when });
    await bus.publish(subj("a.ev"), { n: 2, nested: { ok: true }, list: [1, "x", null] });
    const c = collector<Record<string, unknown>>();
    const sub = await bus.subscribe(subj("a.ev"), c.handler, { durable: durable("a") });
    await waitFor("2 messages", () => c.msgs.length === 2);
    const [m1, m2] = c.msgs;
    expect(m1?.data).toEqual({ n: 1, when: "2024-01-02T03:04:05.000Z" }); // Dates arrive as JSON strings
    expect(m2?.data).toEqual({ n: 2, nested: { ok: true }, list: [1, "x", null] });
    for (const m of c.msgs) {
      expect(m.subject).toBe(subj("a.ev"));
      expect(m.deliveryCount).toBe(1);
      expect(m.publishedAt).toBeInstanceOf(Date);
      expect(typeof m.id).toBe("string");
    }
    expect(m1?.id).not.toBe(m2?.id);
    await sub.unsubscribe();
  });

  test("(b) subscribers sharing a durable get each message exactly once in total", async () => {
    const d = durable("b");
    const c1 = collector<{ n: number }>();
    const c2 = collector<{ n: number }>();
    const s1 = await bus.subscribe(subj("b.ev"), c1.handler, { durable: d });
    const s2 = await bus.subscribe(subj("b.ev"), c2.handler, { durable: d });
    for (let n = 0; n < 20; n++) await bus.publish(subj("b.ev"), { n });
    const all = () => [...c1.msgs, ...c2.msgs];
    await waitFor("20 messages", () => all().length >= 20);
    // A trailing sentinel flushes anything still queued behind it, so late duplicates would show.
    await bus.publish(subj("b.ev"), { n: -1 });
    await waitFor("sentinel", () => all().some((m) => m.data.n === -1));
    const got = all().filter((m) => m.data.n !== -1);
    expect(got).toHaveLength(20);
    expect(new Set(got.map((m) => m.id)).size).toBe(20);
    expect(new Set(got.map((m) => m.data.n)).size).toBe(20);
    await Promise.all([s1.unsubscribe(), s2.unsubscribe()]);
  });

  test("(c) different durables each get every message", async () => {
    for (let n = 0; n < 5; n++) await bus.publish(subj("c.ev"), { n });
    const c1 = collector<{ n: number }>();
    const c2 = collector<{ n: number }>();
    const s1 = await bus.subscribe(subj("c.ev"), c1.handler, { durable: durable("c1") });
    const s2 = await bus.subscribe(subj("c.ev"), c2.handler, { durable: durable("c2") });
    await waitFor("5 + 5 messages", () => c1.msgs.length === 5 && c2.msgs.length === 5);
    expect(c1.msgs.map((m) => m.data.n)).toEqual([0, 1, 2, 3, 4]);
    expect(c2.msgs.map((m) => m.data.n)).toEqual([0, 1, 2, 3, 4]);
    expect(c1.msgs.map((m) => m.id)).toEqual(c2.msgs.map((m) => m.id));
    await Promise.all([s1.unsubscribe(), s2.unsubscribe()]);
  });

  test("(d) a failing handler gets the message again with deliveryCount 2", async () => {
    const seen: BusMessage<{ v: string }>[] = [];
    const sub = await bus.subscribe<{ v: string }>(
      subj("d.ev"),
      async (m) => {
        seen.push(m);
        if (m.deliveryCount === 1) throw new Error("transient failure");
      },
      { durable: durable("d"), retryDelayMs: 50 },
    );
    await bus.publish(subj("d.ev"), { v: "retry-me" });
    await waitFor("redelivery", () => seen.length === 2);
    expect(seen.map((m) => m.deliveryCount)).toEqual([1, 2]);
    expect(seen[1]?.id).toBe(seen[0]?.id);
    expect(seen[1]?.data).toEqual({ v: "retry-me" });
    await sub.unsubscribe();
  });

  test("(d2) a message that keeps failing is dropped after maxDeliver with an error log", async () => {
    const d = durable("d2");
    const counts: number[] = [];
    const sub = await bus.subscribe(
      subj("d2.ev"),
      async (m) => {
        counts.push(m.deliveryCount);
        throw new Error("permanent failure");
      },
      { durable: d, retryDelayMs: 20, maxDeliver: 3 },
    );
    await bus.publish(subj("d2.ev"), { v: 1 });
    await waitFor("drop error log", () => h.logs.some((l) => l.level === "error" && l.obj.durable === d));
    expect(counts).toEqual([1, 2, 3]);
    await sub.unsubscribe();
  });

  test("(e) msgId dedupes repeated publishes", async () => {
    const msgId = `dup-${rand()}`;
    await bus.publish(subj("e.ev"), { v: "first" }, { msgId });
    await bus.publish(subj("e.ev"), { v: "second" }, { msgId });
    await bus.publish(subj("e.ev"), { v: "sentinel" });
    const c = collector<{ v: string }>();
    const sub = await bus.subscribe(subj("e.ev"), c.handler, { durable: durable("e") });
    await waitFor("sentinel", () => c.has((m) => m.data.v === "sentinel"));
    expect(c.msgs.map((m) => m.data.v)).toEqual(["first", "sentinel"]);
    expect(c.msgs[0]?.id).toBe(msgId);
    await sub.unsubscribe();
  });

  test("(f) unsubscribe + resubscribe of a durable resumes without redelivering acked messages", async () => {
    const d = durable("f");
    const c = collector<{ n: number }>();
    for (let n = 1; n <= 3; n++) await bus.publish(subj("f.ev"), { n });
    const s1 = await bus.subscribe(subj("f.ev"), c.handler, { durable: d });
    await waitFor("first 3", () => c.msgs.length === 3);
    await s1.unsubscribe();
    for (let n = 4; n <= 5; n++) await bus.publish(subj("f.ev"), { n });
    const s2 = await bus.subscribe(subj("f.ev"), c.handler, { durable: d });
    await waitFor("messages 4 and 5", () => c.has((m) => m.data.n === 5));
    expect(c.msgs.map((m) => m.data.n)).toEqual([1, 2, 3, 4, 5]);
    expect(c.msgs.every((m) => m.deliveryCount === 1)).toBe(true);
    await s2.unsubscribe();
  });

  test("(g) wildcard subjects: `*` matches one token, `>` one or more", async () => {
    const star = collector();
    const gt = collector();
    const s1 = await bus.subscribe(subj("x.*"), star.handler, { durable: durable("g1") });
    const s2 = await bus.subscribe(subj("x.>"), gt.handler, { durable: durable("g2") });
    for (const s of ["x.one", "y.one", "x.one.deep", "x.two", "x"]) await bus.publish(subj(s), { s });
    await bus.publish(subj("x.zz"), "sentinel");
    await waitFor("sentinels", () => star.has((m) => m.data === "sentinel") && gt.has((m) => m.data === "sentinel"));
    expect(star.msgs.map((m) => m.subject)).toEqual([subj("x.one"), subj("x.two"), subj("x.zz")]);
    expect(gt.msgs.map((m) => m.subject)).toEqual([subj("x.one"), subj("x.one.deep"), subj("x.two"), subj("x.zz")]);
    await Promise.all([s1.unsubscribe(), s2.unsubscribe()]);
  });

  test("(h) publishing outside `quarry.` (or to a wildcard) throws", async () => {
    await expect(bus.publish("other.thing", {})).rejects.toThrow(/quarry\./);
    await expect(bus.publish("quarryx.thing", {})).rejects.toThrow(/quarry\./);
    await expect(bus.publish(subj("a.*"), {})).rejects.toThrow();
    await expect(bus.subscribe("other.>", async () => {}, { durable: durable("h") })).rejects.toThrow(/quarry\./);
  });

  test("(i) a subscription processes one message at a time, in publish order", async () => {
    let active = 0;
    let maxActive = 0;
    const order: number[] = [];
    const sub = await bus.subscribe<{ n: number }>(
      subj("i.ev"),
      async (m) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(5);
        order.push(m.data.n);
        active--;
      },
      { durable: durable("i") },
    );
    for (let n = 0; n < 10; n++) await bus.publish(subj("i.ev"), { n });
    await waitFor("10 messages", () => order.length === 10);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(maxActive).toBe(1);
    await sub.unsubscribe();
  });

  test("(j) close() waits for in-flight handlers and stops delivery", async () => {
    const b = await h.newBus();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    let finished = 0;
    await b.subscribe(
      subj("j.ev"),
      async () => {
        started++;
        await gate;
        finished++;
      },
      { durable: durable("j") },
    );
    await b.publish(subj("j.ev"), { n: 1 });
    await b.publish(subj("j.ev"), { n: 2 });
    await waitFor("handler start", () => started === 1);
    let closed = false;
    const closing = b.close().then(() => (closed = true));
    await sleep(20);
    expect(closed).toBe(false);
    release();
    await closing;
    expect(finished).toBe(1);
    expect(started).toBe(1);
    await expect(b.publish(subj("j.ev"), {})).rejects.toThrow(/closed/);
  });

  test("(k) an ephemeral subscriber gets only what is published while it is subscribed; nothing is left behind", async () => {
    const consumers = async (b: EventBus) => (b instanceof NatsJetStreamBus ? await b.consumerNames() : null);
    const d = durable("k");
    await bus.publish(subj("k.ev"), { n: 0 });
    const c1 = collector<{ n: number }>();
    const s1 = await bus.subscribe(subj("k.ev"), c1.handler, { durable: d, ephemeral: true });
    if (bus instanceof NatsJetStreamBus) expect(await consumers(bus)).toContain(d);
    await bus.publish(subj("k.ev"), { n: 1 });
    await waitFor("message 1", () => c1.msgs.length === 1);
    await s1.unsubscribe();
    if (bus instanceof NatsJetStreamBus) expect(await consumers(bus)).not.toContain(d);

    // Published while nobody was subscribed: a durable would keep it, the ephemeral consumer is gone.
    await bus.publish(subj("k.ev"), { n: 2 });
    const c2 = collector<{ n: number }>();
    const s2 = await bus.subscribe(subj("k.ev"), c2.handler, { durable: d, ephemeral: true });
    await bus.publish(subj("k.ev"), { n: 3 });
    await waitFor("message 3", () => c2.msgs.length >= 1);
    await sleep(100);
    expect(c1.msgs.map((m) => m.data.n)).toEqual([1]);
    expect(c2.msgs.map((m) => m.data.n)).toEqual([3]);
    await s2.unsubscribe();

    // A process that closes its bus (as a stopping gateway does) deletes its ephemeral consumers too.
    const b = await h.newBus();
    const d2 = durable("k2");
    await b.subscribe(subj("k.ev"), async () => {}, { durable: d2, ephemeral: true });
    if (bus instanceof NatsJetStreamBus) expect(await consumers(bus)).toContain(d2);
    await b.close();
    if (bus instanceof NatsJetStreamBus) expect(await consumers(bus)).not.toContain(d2);
    if (bus instanceof NatsJetStreamBus) expect(await consumers(bus)).not.toContain(d);
  });
});
