// Fan-out from the bus and the delivery worker: real bus, PostgreSQL and HTTP receiver.
import { Subjects } from "@quarry/bus";
import { silentLogger } from "@quarry/logger";
import { createTestDatabase, waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHookService } from "../server.ts";
import { FAST, pushEvent, startFixture, startReceiver, type Fixture, type Receiver } from "../test-fixture.ts";
import { idempotencyKey } from "./events.ts";

describe("fan-out and delivery worker", () => {
  let f: Fixture;
  let r: Receiver;
  let project = 100;
  beforeAll(async () => {
    f = await startFixture("hook_worker");
    r = await startReceiver();
  });
  afterAll(async () => {
    await r?.close();
    await f?.stop();
  });

  const hookFor = async (projectId: number, input: Record<string, unknown> = {}) =>
    Number((await f.client.CreateHook({ owner: { projectId }, input: { url: `${r.url}/p${projectId}`, ...input } })).id);
  const at = (projectId: number) => r.requests.filter((q) => q.path.startsWith(`/p${projectId}`));

  it("queues one delivery per matching hook, once however often the event arrives", async () => {
    const p = project++;
    const pushHook = await hookFor(p);
    const tagHook = await hookFor(p, { pushEvents: false, tagPushEvents: true, url: `${r.url}/p${p}/tags` });
    await hookFor(p, { pushEventsBranchFilter: "release/*", url: `${r.url}/p${p}/release` });
    const event = pushEvent(p);
    await f.bus.publish(Subjects.push, event);
    await f.bus.publish(Subjects.push, event, { msgId: "again" }); // a redelivery / republish
    await waitFor(() => at(p).length >= 1, { message: "push delivery" });
    await f.bus.publish(Subjects.tagPush, pushEvent(p, { kind: "tag_push" }));
    const rows = await waitFor(
      async () => {
        const all = await f.svc.deps.prisma.webHookDelivery.findMany({ where: { hook: { projectId: p } }, orderBy: { id: "asc" } });
        return all.length === 2 && all.every((d) => d.state !== "pending") && all;
      },
      { message: "both deliveries done" },
    );
    expect(rows.map((d) => [d.hookId, d.trigger, d.state])).toEqual([
      [pushHook, "push_hooks", "delivered"],
      [tagHook, "tag_push_hooks", "delivered"],
    ]);
    expect(rows[0]!.idempotencyKey).toBe(idempotencyKey(event.event_id, pushHook));
    expect(at(p).map((q) => q.path)).toEqual([`/p${p}`, `/p${p}/tags`]);
    expect(JSON.parse(at(p)[0]!.body)).not.toHaveProperty("event_id");
  });

  it("retries with back-off until max attempts, the same Idempotency-Key each time; 4xx is final", async () => {
    const p = project++;
    r.queue.push({ status: 500 }, { status: 502 }, { status: 503 });
    const id = await hookFor(p);
    await f.bus.publish(Subjects.push, pushEvent(p));
    await waitFor(async () => (await f.svc.deps.prisma.webHookDelivery.findFirst({ where: { hookId: id } }))?.state === "failed", { message: "failed" });
    expect(at(p).map((q) => q.headers["idempotency-key"])).toEqual(Array(3).fill(at(p)[0]!.headers["idempotency-key"]));
    expect(await f.svc.deps.prisma.webHookLog.count({ where: { hookId: id } })).toBe(3);
    // The three attempts are one delivery: one failure towards auto-disabling.
    expect(await f.svc.deps.prisma.webHook.findUniqueOrThrow({ where: { id } })).toMatchObject({ recentFailures: 1, disabledUntil: null });

    const p2 = project++;
    r.queue.push({ status: 410 });
    const id2 = await hookFor(p2);
    await f.bus.publish(Subjects.push, pushEvent(p2));
    const d = await waitFor(async () => {
      const row = await f.svc.deps.prisma.webHookDelivery.findFirst({ where: { hookId: id2 } });
      return row?.state === "failed" && row;
    });
    expect(d.attempts).toBe(1);
  });

  it("disabled hooks get no new events; pending retries wait for a temporary disablement and are dropped for a permanent one", async () => {
    const p = project++;
    const temp = await hookFor(p, { url: `${r.url}/p${p}/temp` });
    const perm = await hookFor(p, { url: `${r.url}/p${p}/perm` });
    await hookFor(p, { url: `${r.url}/p${p}/live` });
    const until = new Date(Date.now() + 3600_000);
    await f.svc.deps.prisma.webHook.update({ where: { id: temp }, data: { recentFailures: 4, backoffCount: 1, disabledUntil: until } });
    await f.svc.deps.prisma.webHook.update({ where: { id: perm }, data: { recentFailures: 40, permanentlyDisabled: true } });
    await f.bus.publish(Subjects.push, pushEvent(p));
    await waitFor(() => at(p).length === 1, { message: "live hook delivery" });
    expect(at(p)[0]!.path).toBe(`/p${p}/live`);
    expect(await f.svc.deps.prisma.webHookDelivery.count({ where: { hookId: { in: [temp, perm] } } })).toBe(0);

    const keys = (n: number) => ({ idempotencyKey: `00000000-0000-4000-8000-00000000000${n}`, eventUuid: "00000000-0000-4000-8000-000000000009" });
    const waiting = await f.svc.deps.prisma.webHookDelivery.create({ data: { hookId: temp, eventId: "w", trigger: "push_hooks", payload: {}, ...keys(1) } });
    const dropped = await f.svc.deps.prisma.webHookDelivery.create({ data: { hookId: perm, eventId: "d", trigger: "push_hooks", payload: {}, ...keys(2) } });
    f.svc.deps.wake();
    await waitFor(async () => (await f.svc.deps.prisma.webHookDelivery.findUniqueOrThrow({ where: { id: dropped.id } })).state === "dropped");
    await waitFor(
      async () => {
        const w = await f.svc.deps.prisma.webHookDelivery.findUniqueOrThrow({ where: { id: waiting.id } });
        return w.nextAttemptAt.getTime() === until.getTime() && w.state === "pending" && w.attempts === 0;
      },
      { message: "rescheduled to disabled_until" },
    );
    expect(at(p)).toHaveLength(1);
  });

  it("replicas share the queue kept in PostgreSQL: every delivery is sent exactly once", async () => {
    const second = await startHookService({
      databaseUrl: f.db.url,
      grpcAddress: "127.0.0.1:0",
      identityServiceAddress: "127.0.0.1:1",
      repoServiceAddress: "127.0.0.1:1",
      deadlineMs: 5000,
      encryptionKey: "k".repeat(32),
      allowLocalRequests: true,
      settings: FAST,
      bus: f.bus,
      log: silentLogger(),
    });
    try {
      const p = project++;
      const id = await hookFor(p);
      const data = Array.from({ length: 30 }, (_, i) => ({
        hookId: id,
        eventId: `many-${i}`,
        trigger: "push_hooks",
        payload: { n: i },
        idempotencyKey: idempotencyKey(`many-${i}`, id),
        eventUuid: idempotencyKey(`many-${i}`, 0),
      }));
      // Queued behind the services' backs: found by both replicas' claims.
      await f.svc.deps.prisma.webHookDelivery.createMany({ data });
      second.deps.wake();
      f.svc.deps.wake();
      await waitFor(async () => (await f.svc.deps.prisma.webHookDelivery.count({ where: { hookId: id, state: "delivered" } })) === 30, {
        message: "all delivered",
      });
      expect(at(p)).toHaveLength(30);
      expect(new Set(at(p).map((q) => q.headers["idempotency-key"])).size).toBe(30);
    } finally {
      await second.stop();
    }
  });

  it("a delivery waiting for its retry is sent by the next service started on the database", async () => {
    const db = await createTestDatabase("hook_restart");
    const options = {
      databaseUrl: db.url,
      grpcAddress: "127.0.0.1:0",
      identityServiceAddress: "127.0.0.1:1",
      repoServiceAddress: "127.0.0.1:1",
      deadlineMs: 5000,
      encryptionKey: "k".repeat(32),
      allowLocalRequests: true,
      bus: f.bus,
      log: silentLogger(),
    };
    try {
      // A service whose retries are an hour apart fails once and goes away…
      const first = await startHookService({ ...options, settings: { ...FAST, retryBaseMs: 3600_000 } });
      const p = project++;
      const hook = await first.deps.prisma.webHook.create({ data: { projectId: p, url: `${r.url}/p${p}`, uuid: "66666666-6666-4666-8666-666666666666" } });
      r.queue.push({ status: 500 });
      const keys = { idempotencyKey: idempotencyKey("restart", hook.id), eventUuid: idempotencyKey("restart", 0) };
      await first.deps.prisma.webHookDelivery.create({ data: { hookId: hook.id, eventId: "restart", trigger: "push_hooks", payload: { n: 1 }, ...keys } });
      first.deps.wake();
      const pending = await waitFor(
        async () => {
          const d = await first.deps.prisma.webHookDelivery.findFirst({ where: { hookId: hook.id } });
          return d?.attempts === 1 && d;
        },
        { message: "first attempt" },
      );
      await first.stop();
      expect(pending.state).toBe("pending");
      expect(pending.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 3000_000);

      // …time passes (the retry is due), and the service started next sends it.
      const second = await startHookService({ ...options, settings: FAST });
      try {
        await second.deps.prisma.webHookDelivery.update({ where: { id: pending.id }, data: { nextAttemptAt: new Date() } });
        second.deps.wake();
        await waitFor(async () => (await second.deps.prisma.webHookDelivery.findUniqueOrThrow({ where: { id: pending.id } })).state === "delivered");
        expect(at(p).map((q) => q.headers["idempotency-key"])).toEqual([keys.idempotencyKey, keys.idempotencyKey]);
      } finally {
        await second.stop();
      }
    } finally {
      await db.drop();
    }
  });
});
