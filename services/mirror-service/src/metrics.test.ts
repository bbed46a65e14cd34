// mirror-service's sync-queue gauges against real PostgreSQL with its migrations.
import { applyMigrations } from "@quarry/database";
import { createMetrics } from "@quarry/grpc";
import { createPrisma } from "@quarry/service";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { registerMirrorMetrics } from "./metrics.ts";

let db: TestDatabase;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await createTestDatabase("mirror_metrics");
  await applyMigrations(db.url, migrations, { log: () => {} });
  prisma = createPrisma(PrismaClient, db.url, 2);
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

describe("mirror-service metrics", () => {
  it("count scheduled, running and due mirrors on scrape", async () => {
    const metrics = createMetrics("mirror-service", { defaultMetrics: false });
    registerMirrorMetrics(metrics, prisma);
    expect(await metrics.text()).toContain('quarry_mirrors_scheduled{service="mirror-service"} 0');

    const mirror = (updateStatus: string, leaseExpiresAt: Date | null = null) =>
      prisma.remoteMirror.create({ data: { projectId: 1, url: "https://example.com/r.git", enabled: true, updateStatus, leaseExpiresAt } });
    await mirror("scheduled");
    await mirror("scheduled");
    await mirror("started", new Date(Date.now() + 600_000)); // syncing
    await mirror("started", new Date(Date.now() - 1000)); // its replica died: the sweep takes it again
    await mirror("finished");

    await new Promise((r) => setTimeout(r, 1_100)); // past the shared reading
    const text = await metrics.text();
    expect(text).toContain('quarry_mirrors_scheduled{service="mirror-service"} 2');
    expect(text).toContain('quarry_mirrors_running{service="mirror-service"} 1');
    expect(text).toContain('quarry_mirrors_due{service="mirror-service"} 3');
  });
});
