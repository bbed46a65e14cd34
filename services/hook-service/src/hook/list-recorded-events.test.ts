import { status } from "@grpc/grpc-js";
import { InProcessBus } from "@quarry/bus";
import { createClient, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { hookV1, type HookServiceDefinition } from "@quarry/proto";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHookService, type RunningHookService } from "../server.ts";

describe("ListRecordedEvents", () => {
  let db: TestDatabase;
  let bus: InProcessBus;
  let svc: RunningHookService;
  let client: PromiseClient<HookServiceDefinition>;

  beforeAll(async () => {
    db = await createTestDatabase("hook_list");
    bus = new InProcessBus({ log: silentLogger() });
    svc = await startHookService({
      databaseUrl: db.url,
      grpcAddress: "127.0.0.1:0",
      identityServiceAddress: "127.0.0.1:1",
      repoServiceAddress: "127.0.0.1:1",
      deadlineMs: 5_000,
      encryptionKey: "k".repeat(32),
      allowLocalRequests: true,
      bus,
      log: silentLogger(),
    });
    client = createClient(hookV1.HookService, svc.address, { deadlineMs: 10_000 });
    // 1100 rows, inserted in id order: every third one is a "push".
    await svc.deps.prisma.recordedEvent.createMany({
      data: Array.from({ length: 1100 }, (_, i) => ({
        eventId: `ev-${i}`,
        subject: i % 3 === 0 ? "quarry.repo.push" : "quarry.identity.user_create",
        eventName: i % 3 === 0 ? "push" : "user_create",
        payload: { n: i, nested: { ok: true }, list: [1, null, "x"] },
      })),
    });
  });

  afterAll(async () => {
    client?.close();
    await svc?.stop();
    await bus?.close();
    await db?.drop();
  });

  it("returns the 100 newest by default", async () => {
    const { events } = await client.ListRecordedEvents({});
    expect(events).toHaveLength(100);
    expect(events[0]?.eventId).toBe("ev-1099");
    expect(events[99]?.eventId).toBe("ev-1000");
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it("maps every field; payload_json is the payload as JSON text", async () => {
    const [e] = (await client.ListRecordedEvents({ limit: 1 })).events;
    expect(e).toMatchObject({ eventId: "ev-1099", subject: "quarry.identity.user_create", eventName: "user_create" });
    expect(e!.id).toBeGreaterThan(0);
    expect(JSON.parse(e!.payloadJson)).toEqual({ n: 1099, nested: { ok: true }, list: [1, null, "x"] });
    expect(new Date(e!.receivedAt).toISOString()).toBe(e!.receivedAt);
  });

  it("honours limit, capped at 1000", async () => {
    expect((await client.ListRecordedEvents({ limit: 7 })).events).toHaveLength(7);
    expect((await client.ListRecordedEvents({ limit: 1000 })).events).toHaveLength(1000);
    expect((await client.ListRecordedEvents({ limit: 100_000 })).events).toHaveLength(1000);
  });

  it("filters by event_name", async () => {
    const { events } = await client.ListRecordedEvents({ eventName: "push", limit: 3 });
    expect(events.map((e) => e.eventId)).toEqual(["ev-1098", "ev-1095", "ev-1092"]);
    expect((await client.ListRecordedEvents({ eventName: "push", limit: 1000 })).events).toHaveLength(367);
    expect((await client.ListRecordedEvents({ eventName: "nope" })).events).toEqual([]);
  });

  it("rejects a negative limit with INVALID_ARGUMENT", async () => {
    const err = await client.ListRecordedEvents({ limit: -1 }).catch((e: unknown) => e);
    expect((err as { code?: number }).code).toBe(status.INVALID_ARGUMENT);
  });
});
