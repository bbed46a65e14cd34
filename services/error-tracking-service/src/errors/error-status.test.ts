import { RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type ErrorTrackingTestContext } from "../../test/support.ts";

let t: ErrorTrackingTestContext;
beforeAll(async () => {
  t = await setUp("et_status");
});
afterAll(() => t?.close());

const event = (type: string, value: string, timestamp: number) =>
  JSON.stringify({ event_id: `${timestamp}`.padStart(32, "0"), platform: "node", level: "error", timestamp, exception: { values: [{ type, value }] } });

async function projectWithErrors(projectId: number) {
  await t.client.UpdateSettings({ projectId, active: true, integrated: true, create: true });
  const publicKey = (await t.client.CreateClientKey({ projectId })).publicKey;
  const report = async (type: string, value: string, timestamp: number) =>
    (await t.client.CollectEvents({ projectId, publicKey, events: [event(type, value, timestamp)] })).errorIds[0]!;
  return { report };
}

describe("GetError and UpdateError", () => {
  it("read one error, set its status, and refuse other projects' errors and unknown statuses", async () => {
    const { report } = await projectWithErrors(40);
    const id = await report("TypeError", "boom", 1_700_000_000);
    expect(await t.client.GetError({ projectId: 40, errorId: id })).toMatchObject({ id, name: "TypeError", status: "unresolved" });
    expect(await t.client.UpdateError({ projectId: 40, errorId: id, status: "ignored" })).toMatchObject({ id, status: "ignored" });
    expect((await t.client.GetError({ projectId: 40, errorId: id })).status).toBe("ignored");

    expect(await failure(t.client.GetError({ projectId: 41, errorId: id }))).toMatchObject({
      code: status.NOT_FOUND,
      body: { message: RECORD_NOT_FOUND_MESSAGE },
    });
    expect(await failure(t.client.UpdateError({ projectId: 41, errorId: id, status: "resolved" }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await failure(t.client.UpdateError({ projectId: 40, errorId: id, status: "closed" }))).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect((await t.client.GetError({ projectId: 40, errorId: id })).status).toBe("ignored");
  });

  it("a resolved error happening again is unresolved; an ignored one stays ignored", async () => {
    const { report } = await projectWithErrors(42);
    const resolved = await report("TypeError", "regression", 1_700_000_000);
    const ignored = await report("RangeError", "noise", 1_700_000_000);
    await t.client.UpdateError({ projectId: 42, errorId: resolved, status: "resolved" });
    await t.client.UpdateError({ projectId: 42, errorId: ignored, status: "ignored" });
    expect(await report("TypeError", "regression", 1_700_000_100)).toBe(resolved);
    expect(await report("RangeError", "noise", 1_700_000_100)).toBe(ignored);
    expect((await t.client.GetError({ projectId: 42, errorId: resolved })).status).toBe("unresolved");
    expect((await t.client.GetError({ projectId: 42, errorId: ignored })).status).toBe("ignored");
  });
});

describe("ListErrors filters", () => {
  it("filters by status, searches name and description, and sorts by last seen, first seen or frequency", async () => {
    const { report } = await projectWithErrors(43);
    const old = await report("TypeError", "old but frequent", 1_700_000_000);
    await report("TypeError", "old but frequent", 1_700_000_050);
    await report("TypeError", "old but frequent", 1_700_000_060);
    const recent = await report("SyntaxError", "fresh", 1_700_000_300);
    const middle = await report("RangeError", "in between", 1_700_000_100);
    await t.client.UpdateError({ projectId: 43, errorId: middle, status: "resolved" });
    const ids = async (q: { status?: string; sort?: string; search?: string }) => (await t.client.ListErrors({ projectId: 43, ...q })).errors.map((e) => e.id);

    expect(await ids({})).toEqual([recent, middle, old]);
    expect(await ids({ sort: "first_seen" })).toEqual([recent, middle, old]);
    expect(await ids({ sort: "frequency" })).toEqual([old, middle, recent]);
    expect(await ids({ status: "resolved" })).toEqual([middle]);
    expect(await ids({ status: "unresolved" })).toEqual([recent, old]);
    expect(await ids({ status: "ignored" })).toEqual([]);
    expect(await ids({ search: "FRESH" })).toEqual([recent]);
    expect(await ids({ search: "rangeerror" })).toEqual([middle]);
    expect((await t.client.ListErrors({ projectId: 43, status: "resolved" })).total).toBe(1);
  });
});
