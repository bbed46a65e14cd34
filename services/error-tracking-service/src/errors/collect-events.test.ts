import { RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type ErrorTrackingTestContext } from "../../test/support.ts";

let t: ErrorTrackingTestContext;
beforeAll(async () => {
  t = await setUp("et_collect");
});
afterAll(() => t?.close());

const exceptionEvent = (value: string, fn: string, timestamp: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    event_id: `${timestamp}`.padStart(32, "0"),
    platform: "node",
    level: "error",
    environment: "production",
    timestamp,
    exception: {
      values: [
        {
          type: "TypeError",
          value,
          stacktrace: {
            frames: [
              { function: "main", filename: "/app/index.js", in_app: true },
              { function: fn, filename: "/app/lib.js", in_app: true },
            ],
          },
        },
      ],
    },
    ...extra,
  });

async function enabledProject(projectId: number) {
  await t.client.UpdateSettings({ projectId, active: true, integrated: true, create: true });
  return (await t.client.CreateClientKey({ projectId })).publicKey;
}

describe("CollectEvents", () => {
  it("groups events by type, message and raising frame; counts them and tracks first and last seen", async () => {
    const key = await enabledProject(20);
    const first = await t.client.CollectEvents({ projectId: 20, publicKey: key, events: [exceptionEvent("x is undefined", "load", 1_700_000_100)] });
    const again = await t.client.CollectEvents({ projectId: 20, publicKey: key, events: [exceptionEvent("x is undefined", "load", 1_700_000_000)] });
    const other = await t.client.CollectEvents({ projectId: 20, publicKey: key, events: [exceptionEvent("x is undefined", "save", 1_700_000_200)] });
    expect(again.errorIds).toEqual(first.errorIds);
    expect(other.errorIds[0]).not.toBe(first.errorIds[0]);

    const { errors, total } = await t.client.ListErrors({ projectId: 20 });
    expect(total).toBe(2);
    // Most recently seen first.
    expect(errors.map((e) => e.id)).toEqual([other.errorIds[0], first.errorIds[0]]);
    expect(errors[1]).toMatchObject({
      projectId: 20,
      name: "TypeError",
      description: "x is undefined",
      actor: "load(/app/lib.js)",
      platform: "node",
      eventCount: 2,
      firstSeenAt: new Date(1_700_000_000_000).toISOString(),
      lastSeenAt: new Date(1_700_000_100_000).toISOString(),
      status: "unresolved",
    });

    const events = await t.client.ListErrorEvents({ projectId: 20, errorId: first.errorIds[0]! });
    expect(events.total).toBe(2);
    expect(events.events.map((e) => e.occurredAt)).toEqual([new Date(1_700_000_100_000).toISOString(), new Date(1_700_000_000_000).toISOString()]);
    expect(events.events[0]).toMatchObject({ level: "error", environment: "production", description: "x is undefined" });
    expect(JSON.parse(events.events[0]!.payload)).toMatchObject({ platform: "node", exception: { values: [{ type: "TypeError" }] } });
  });

  it("an event's own fingerprint decides its group; message events are accepted", async () => {
    const key = await enabledProject(21);
    const a = await t.client.CollectEvents({
      projectId: 21,
      publicKey: key,
      events: [exceptionEvent("one", "f", 1_700_000_000, { fingerprint: ["db-down"] })],
    });
    const b = await t.client.CollectEvents({
      projectId: 21,
      publicKey: key,
      events: [exceptionEvent("two", "g", 1_700_000_001, { fingerprint: ["db-down"] })],
    });
    expect(b.errorIds).toEqual(a.errorIds);
    const m = await t.client.CollectEvents({
      projectId: 21,
      publicKey: key,
      events: [JSON.stringify({ event_id: "a".repeat(32), message: "hello", level: "info" })],
    });
    expect((await t.client.ListErrors({ projectId: 21 })).errors.find((e) => e.id === m.errorIds[0])).toMatchObject({ name: "", description: "hello" });
  });

  it("refuses (404 Not Found, nothing stored) unless integrated tracking is on and the key is an active key of the project", async () => {
    const key = await enabledProject(22);
    const otherKey = await enabledProject(23);
    const event = [exceptionEvent("boom", "f", 1_700_000_000)];
    const notFound = { code: status.NOT_FOUND, body: { message: "404 Not Found" } };
    expect(await failure(t.client.CollectEvents({ projectId: 22, publicKey: otherKey, events: event }))).toEqual(notFound);
    expect(await failure(t.client.CollectEvents({ projectId: 22, publicKey: "", events: event }))).toEqual(notFound);
    expect(await failure(t.client.CollectEvents({ projectId: 24, publicKey: key, events: event }))).toEqual(notFound);
    await t.client.UpdateSettings({ projectId: 22, active: true, integrated: false });
    expect(await failure(t.client.CollectEvents({ projectId: 22, publicKey: key, events: event }))).toEqual(notFound);
    await t.client.UpdateSettings({ projectId: 22, active: false, integrated: true });
    expect(await failure(t.client.CollectEvents({ projectId: 22, publicKey: key, events: event }))).toEqual(notFound);
    expect((await t.client.ListErrors({ projectId: 22 })).total).toBe(0);
  });

  it("answers 400 for a payload that is not JSON or not an event, storing none of the batch", async () => {
    const key = await enabledProject(25);
    const good = exceptionEvent("boom", "f", 1_700_000_000);
    expect(await failure(t.client.CollectEvents({ projectId: 25, publicKey: key, events: [good, "{nope"] }))).toEqual({
      code: status.INVALID_ARGUMENT,
      body: { message: "400 Bad request - Failed to parse sentry request" },
    });
    expect(await failure(t.client.CollectEvents({ projectId: 25, publicKey: key, events: [good, "{}"] }))).toEqual({
      code: status.INVALID_ARGUMENT,
      body: { message: "400 Bad request - Unsupported sentry payload" },
    });
    expect((await t.client.ListErrors({ projectId: 25 })).total).toBe(0);
  });

  it("drops NUL characters (PostgreSQL cannot store them) and ignores unbelievable timestamps", async () => {
    const key = await enabledProject(28);
    const { errorIds } = await t.client.CollectEvents({
      projectId: 28,
      publicKey: key,
      events: [JSON.stringify({ message: "nul\u0000here", timestamp: -1e13, extra: { "k\u0000": ["v\u0000"] } })],
    });
    const [event] = (await t.client.ListErrorEvents({ projectId: 28, errorId: errorIds[0]! })).events;
    expect(event).toMatchObject({ description: "nulhere" });
    expect(JSON.parse(event!.payload)).toMatchObject({ extra: { k: ["v"] } });
    expect(new Date(event!.occurredAt).getUTCFullYear()).toBeGreaterThan(2000);
  });

  it("lists another project's error events as 404 Not found", async () => {
    const key = await enabledProject(26);
    const { errorIds } = await t.client.CollectEvents({ projectId: 26, publicKey: key, events: [exceptionEvent("boom", "f", 1_700_000_000)] });
    expect(await failure(t.client.ListErrorEvents({ projectId: 27, errorId: errorIds[0]! }))).toEqual({
      code: status.NOT_FOUND,
      body: { message: RECORD_NOT_FOUND_MESSAGE },
    });
  });
});
