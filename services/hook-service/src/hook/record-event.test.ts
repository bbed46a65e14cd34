import type { BusMessage } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma } from "@quarry/service";
import { PrismaClient } from "../generated/prisma/client.ts";
import { migrations } from "../generated/migrations.ts";
import { recordEvent, toEventRecord } from "./record-event.ts";

const msg = (subject: string, data: unknown, extra: Partial<BusMessage<unknown>> = {}): BusMessage<unknown> => ({
  subject,
  data,
  id: "bus-msg-1",
  deliveryCount: 1,
  publishedAt: new Date(),
  ...extra,
});

describe("toEventRecord", () => {
  it("takes event_id and event_name from the payload", () => {
    const data = { event_id: "e-1", event_name: "project_create", project_id: 3 };
    expect(toEventRecord(msg("quarry.identity.project_create", data))).toEqual({
      eventId: "e-1",
      subject: "quarry.identity.project_create",
      eventName: "project_create",
      payloadJson: JSON.stringify(data),
    });
  });

  it("falls back to the bus message id and the subject's last token", () => {
    for (const data of [{ user_id: 1 }, { event_id: "", event_name: 5 }, null, "text", [1, 2]]) {
      const r = toEventRecord(msg("quarry.repo.tag_push", data, { id: "m-9" }));
      expect(r).toMatchObject({ eventId: "m-9", eventName: "tag_push" });
      expect(JSON.parse(r.payloadJson)).toEqual(data);
    }
  });
});

describe("recordEvent", () => {
  let db: TestDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    db = await createTestDatabase("hook_record");
    await applyMigrations(db.url, migrations, { log: () => {} });
    prisma = createPrisma(PrismaClient, db.url, 2);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  it("records a redelivered message once", async () => {
    const record = recordEvent({ prisma });
    const data = { event_id: "e-redeliver", event_name: "push", ref: "refs/heads/main" };
    expect(await record(msg("quarry.repo.push", data))).toBe(true);
    expect(await record(msg("quarry.repo.push", data, { deliveryCount: 2 }))).toBe(false);
    // A republish under another bus message id is still the same event.
    expect(await record(msg("quarry.repo.push", { ...data, ref: "other" }, { id: "bus-msg-2" }))).toBe(false);
    const rows = await prisma.recordedEvent.findMany({ where: { eventId: "e-redeliver" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject: "quarry.repo.push", eventName: "push", payload: data });
  });
});
