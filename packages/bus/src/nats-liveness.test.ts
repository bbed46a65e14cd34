// NatsJetStreamBus only: the server's ack wait is a liveness window kept open by in-progress acks,
// so a message held by a subscriber that stopped answering moves on long before its ackWaitMs.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BusLogger, BusMessage } from "./bus.ts";
import { NatsJetStreamBus } from "./nats.ts";

const NATS_URL = process.env.NATS_URL;
const id = randomUUID().replace(/-/g, "").slice(0, 10);
const stream = `T_${id}`;
const prefix = `quarry.t${id}`;
const quiet: BusLogger = { warn: () => {}, error: () => {} };
const open = (livenessMs: number) => NatsJetStreamBus.connect({ servers: NATS_URL ?? "", stream, subjects: [`${prefix}.>`], livenessMs, log: quiet });

let nc: NatsConnection;
beforeAll(async () => {
  if (NATS_URL) nc = await connect({ servers: NATS_URL });
});
afterAll(async () => {
  if (!nc) return;
  await (await jetstreamManager(nc)).streams.delete(stream).catch(() => {});
  await nc.close();
});

describe.skipIf(!NATS_URL)("NatsJetStreamBus liveness", () => {
  it("hands a message whose holder went silent to another subscriber within the liveness window, not after ackWaitMs", async () => {
    const bus = await open(1_000);
    try {
      const durable = `live-${id}`;
      const seen: BusMessage<{ n: number }>[] = [];
      const first = await bus.subscribe<{ n: number }>(`${prefix}.a`, async (m) => void seen.push(m), { durable, ackWaitMs: 60_000 });
      await first.unsubscribe();
      const info = await (await jetstreamManager(nc)).consumers.info(stream, durable);
      expect(info.config.ack_wait).toBe(1_000 * 1_000_000);

      await bus.publish(`${prefix}.a`, { n: 1 });
      // A holder that takes the message and then neither acks nor says it is working: a killed process.
      const held = await (await jetstream(nc).consumers.get(stream, durable)).next({ expires: 5_000 });
      expect(held?.info.deliveryCount).toBe(1);

      const sub = await bus.subscribe<{ n: number }>(`${prefix}.a`, async (m) => void seen.push(m), { durable, ackWaitMs: 60_000 });
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 20_000, interval: 100 });
      expect(seen[0]).toMatchObject({ data: { n: 1 }, deliveryCount: 2 });
      await sub.unsubscribe();
    } finally {
      await bus.close();
    }
  }, 30_000);

  it("keeps a message while its live handler runs past the window, and takes it back once the handler passes ackWaitMs", async () => {
    // Two subscribers of one durable: the idle one would get any message the server took back.
    const a = await open(600);
    const b = await open(600);
    try {
      const durable = `slow-${id}`;
      const hang = new AbortController();
      const deliveries: { n: number; count: number }[] = [];
      const handler = async (m: BusMessage<{ n: number }>) => {
        deliveries.push({ n: m.data.n, count: m.deliveryCount });
        // Message 1 takes 2.5 s (four windows) and finishes; message 2 hangs on its first delivery.
        if (m.data.n === 1) await sleep(2_500);
        if (m.data.n === 2 && m.deliveryCount === 1) await sleep(30_000, undefined, { signal: hang.signal }).catch(() => {});
      };
      const subs = [
        await a.subscribe(`${prefix}.b`, handler, { durable, ackWaitMs: 4_000 }),
        await b.subscribe(`${prefix}.b`, handler, { durable, ackWaitMs: 4_000 }),
      ];
      await a.publish(`${prefix}.b`, { n: 1 });
      await vi.waitFor(() => expect(deliveries).toHaveLength(1), { timeout: 10_000, interval: 50 });
      await sleep(3_500);
      expect(deliveries).toEqual([{ n: 1, count: 1 }]);

      await a.publish(`${prefix}.b`, { n: 2 });
      await vi.waitFor(() => expect(deliveries).toHaveLength(2), { timeout: 10_000, interval: 50 });
      await sleep(2_000);
      expect(deliveries).toEqual([
        { n: 1, count: 1 },
        { n: 2, count: 1 },
      ]);
      // Past its 4 s the hung handler loses the message to the other subscriber.
      await vi.waitFor(() => expect(deliveries).toHaveLength(3), { timeout: 15_000, interval: 100 });
      expect(deliveries[2]).toEqual({ n: 2, count: 2 });
      hang.abort();
      await Promise.all(subs.map((s) => s.unsubscribe()));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 40_000);
});
