import { InProcessBus, type BusMessage } from "@quarry/bus";
import { silentLogger } from "@quarry/logger";
import { createTestDatabase, waitFor } from "@quarry/testing";
import { applyMigrations } from "@quarry/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma } from "@quarry/service";
import { PrismaClient } from "../generated/prisma/client.ts";
import { migrations } from "../generated/migrations.ts";
import { enqueueEvent, OutboxRelay } from "@quarry/bus";

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await createTestDatabase("outbox");
  await applyMigrations(db.url, migrations);
  prisma = createPrisma(PrismaClient, db.url);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

describe("transactional outbox", () => {
  it("publishes committed events once, in order, and never a rolled-back one", async () => {
    const bus = new InProcessBus();
    const seen: BusMessage<{ n: number }>[] = [];
    await bus.subscribe<{ n: number }>("quarry.test.>", async (m) => void seen.push(m), { durable: "t" });
    await prisma.$transaction(async (tx) => {
      await enqueueEvent(tx, "quarry.test.a", { n: 1 });
      await enqueueEvent(tx, "quarry.test.a", { n: 2 });
    });
    await prisma
      .$transaction(async (tx) => {
        await enqueueEvent(tx, "quarry.test.a", { n: 99 });
        throw new Error("rollback");
      })
      .catch(() => {});
    const relays = [new OutboxRelay(prisma, bus, silentLogger()), new OutboxRelay(prisma, bus, silentLogger())];
    for (const r of relays) r.kick(); // two replicas draining at once
    await waitFor(() => seen.length >= 2);
    await Promise.all(relays.map((r) => r.stop()));
    expect(seen.map((m) => m.data.n)).toEqual([1, 2]);
    expect(await prisma.outboxEvent.count({ where: { publishedAt: null } })).toBe(0);
    await bus.close();
  });
});
