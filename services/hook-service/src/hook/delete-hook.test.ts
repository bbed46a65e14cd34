import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type Fixture } from "../test-fixture.ts";

describe("DeleteHook", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_delete");
  });
  afterAll(() => f?.stop());

  it("deletes the hook with its records and pending deliveries; other owners get NOT_FOUND", async () => {
    const hook = await f.client.CreateHook({ owner: { projectId: 3 }, input: { url: "http://127.0.0.1:9/" } });
    const id = Number(hook.id);
    const keys = { idempotencyKey: "00000000-0000-4000-8000-000000000001", eventUuid: "00000000-0000-4000-8000-000000000002" };
    await f.svc.deps.prisma.webHookDelivery.create({
      data: { hookId: id, eventId: "e", trigger: "push_hooks", payload: {}, nextAttemptAt: new Date(Date.now() + 3600_000), ...keys },
    });
    await f.svc.deps.prisma.webHookLog.create({
      data: {
        hookId: id,
        trigger: "push_hooks",
        url: "u",
        requestHeaders: {},
        requestData: {},
        responseHeaders: {},
        responseBody: "",
        responseStatus: "200",
        executionDuration: 0.1,
        ...keys,
      },
    });
    const err = await f.client.DeleteHook({ owner: { projectId: 4 }, hookId: id }).catch((e: { code: number }) => e);
    expect((err as { code: number }).code).toBe(status.NOT_FOUND);
    expect(await f.client.DeleteHook({ owner: { projectId: 3 }, hookId: id })).toEqual({});
    expect(await f.svc.deps.prisma.webHook.count({ where: { id } })).toBe(0);
    expect(await f.svc.deps.prisma.webHookDelivery.count({ where: { hookId: id } })).toBe(0);
    expect(await f.svc.deps.prisma.webHookLog.count({ where: { hookId: id } })).toBe(0);
  });
});
