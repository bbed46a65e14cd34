// hook-service's delivery-queue gauges against real PostgreSQL with its migrations.
import { randomUUID } from "node:crypto";
import { applyMigrations } from "@quarry/database";
import { createMetrics } from "@quarry/grpc";
import { createPrisma } from "@quarry/service";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { registerHookMetrics } from "./metrics.ts";

let db: TestDatabase;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await createTestDatabase("hook_metrics");
  await applyMigrations(db.url, migrations, { log: () => {} });
  prisma = createPrisma(PrismaClient, db.url, 2);
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

describe("hook-service metrics", () => {
  it("count pending deliveries, and those due now, on scrape", async () => {
    const metrics = createMetrics("hook-service", { defaultMetrics: false });
    registerHookMetrics(metrics, prisma);
    expect(await metrics.text()).toContain('quarry_hook_deliveries_pending{service="hook-service"} 0');

    const hook = await prisma.webHook.create({ data: { projectId: 1, url: "https://example.com/hook", uuid: randomUUID() } });
    const delivery = (state: string, nextAttemptAt: Date) =>
      prisma.webHookDelivery.create({
        data: {
          hookId: hook.id,
          eventId: randomUUID(),
          trigger: "push_hooks",
          payload: {},
          idempotencyKey: randomUUID(),
          eventUuid: randomUUID(),
          state,
          nextAttemptAt,
        },
      });
    await delivery("pending", new Date(Date.now() - 1000));
    await delivery("pending", new Date(Date.now() + 3_600_000)); // a retry waiting
    await delivery("delivered", new Date(Date.now() - 1000));
    await delivery("failed", new Date(Date.now() - 1000));

    await new Promise((r) => setTimeout(r, 1_100)); // past the shared reading
    const text = await metrics.text();
    expect(text).toContain('quarry_hook_deliveries_pending{service="hook-service"} 2');
    expect(text).toContain('quarry_hook_deliveries_due{service="hook-service"} 1');
  });
});
