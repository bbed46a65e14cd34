import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type Fixture } from "../test-fixture.ts";
import { pruneDeliveryData } from "./prune.ts";

const DAY = 24 * 3600_000;

describe("pruneDeliveryData", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_prune");
  });
  afterAll(async () => {
    await f?.stop();
  });

  it("deletes old delivery records, old finished deliveries and spent rate-limit windows; keeps the rest", async () => {
    const prisma = f.svc.deps.prisma;
    const hook = await prisma.webHook.create({ data: { projectId: 1, url: "http://example.test/x", uuid: "44444444-4444-4444-8444-444444444444" } });
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const log = (createdAt: Date) =>
      prisma.webHookLog.create({
        data: {
          hookId: hook.id,
          trigger: "push_hooks",
          url: hook.url,
          requestHeaders: {},
          requestData: {},
          responseHeaders: {},
          responseBody: "",
          responseStatus: "200",
          executionDuration: 0.1,
          idempotencyKey: "11111111-1111-4111-8111-111111111111",
          eventUuid: "22222222-2222-4222-8222-222222222222",
          createdAt,
        },
      });
    const oldLog = await log(ago(91));
    const recentLog = await log(ago(30));
    // Not due for a day: the fixture's running worker must not send (and finish) the pending one.
    const delivery = (eventId: string, state: string, createdAt: Date) =>
      prisma.webHookDelivery.create({
        data: {
          hookId: hook.id,
          eventId,
          trigger: "push_hooks",
          payload: {},
          idempotencyKey: "11111111-1111-4111-8111-111111111111",
          eventUuid: "22222222-2222-4222-8222-222222222222",
          state,
          createdAt,
          nextAttemptAt: new Date(now.getTime() + DAY),
        },
      });
    await delivery("old-delivered", "delivered", ago(8));
    await delivery("old-failed", "failed", ago(8));
    await delivery("old-pending", "pending", ago(8));
    await delivery("new-delivered", "delivered", ago(1));
    await prisma.webHookRateLimit.create({ data: { key: "resend:spent", windowStart: new Date(now.getTime() - 120_000), count: 5 } });
    await prisma.webHookRateLimit.create({ data: { key: "resend:open", windowStart: now, count: 2 } });

    expect(await pruneDeliveryData(f.svc.deps, undefined, now)).toEqual({ logs: 1, deliveries: 2, rateLimits: 1 });
    expect((await prisma.webHookLog.findMany({ where: { hookId: hook.id } })).map((l) => l.id)).toEqual([recentLog.id]);
    expect(await prisma.webHookLog.findUnique({ where: { id: oldLog.id } })).toBeNull();
    const left = await prisma.webHookDelivery.findMany({ where: { hookId: hook.id }, orderBy: { eventId: "asc" } });
    expect(left.map((d) => d.eventId)).toEqual(["new-delivered", "old-pending"]);
    expect((await prisma.webHookRateLimit.findMany({ where: { key: { startsWith: "resend:" } } })).map((r) => r.key)).toEqual(["resend:open"]);
    // Nothing more to do the second time.
    expect(await pruneDeliveryData(f.svc.deps, undefined, now)).toEqual({ logs: 0, deliveries: 0, rateLimits: 0 });
  });

  it("the delivery worker prunes on its own, every pruneIntervalMs", async () => {
    const fx = await startFixture("hook_prune_worker", { settings: { pruneIntervalMs: 50 } });
    try {
      const prisma = fx.svc.deps.prisma;
      await prisma.webHookRateLimit.create({ data: { key: "test:spent", windowStart: new Date(Date.now() - 3600_000), count: 1 } });
      await waitFor(async () => (await prisma.webHookRateLimit.count({ where: { key: "test:spent" } })) === 0, { message: "pruned by the worker" });
    } finally {
      await fx.stop();
    }
  });
});
