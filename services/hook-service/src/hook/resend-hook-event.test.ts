import { ERROR_BODY_KEY } from "@quarry/grpc";
import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, startReceiver, type Fixture, type Receiver } from "../test-fixture.ts";
import { RATE_LIMITED_MESSAGE } from "./rate-limit.ts";

type GrpcErr = { code: number; details: string; metadata: { get(k: string): unknown[] } };

describe("ResendHookEvent", () => {
  let f: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await startFixture("hook_resend");
    r = await startReceiver();
  });
  afterAll(async () => {
    await r?.close();
    await f?.stop();
  });

  const logFor = (hookId: number) =>
    f.svc.deps.prisma.webHookLog.create({
      data: {
        hookId,
        trigger: "tag_push_hooks",
        url: "x",
        requestHeaders: {},
        requestData: { object_kind: "tag_push" },
        responseHeaders: {},
        responseBody: "",
        responseStatus: "500",
        executionDuration: 0,
        idempotencyKey: "44444444-4444-4444-8444-444444444444",
        eventUuid: "55555555-5555-4555-8555-555555555555",
      },
    });

  it("sends the recorded payload with its keys, records it, re-enables the hook; 5 per minute per hook and user", async () => {
    const hook = await f.client.CreateHook({ owner: { projectId: 6 }, input: { url: r.url } });
    const id = Number(hook.id);
    const log = await logFor(id);
    await f.svc.deps.prisma.webHook.update({ where: { id }, data: { recentFailures: 7, backoffCount: 2, disabledUntil: new Date(Date.now() + 3600_000) } });
    const resend = (userId = 1) => f.client.ResendHookEvent({ owner: { projectId: 6 }, hookId: id, hookEventId: Number(log.id), userId });

    r.queue.push({ status: 504 });
    expect(await resend()).toEqual({ responseStatus: 504 });
    expect(await resend()).toEqual({ responseStatus: 200 });
    const sent = r.requests.slice(-2);
    for (const q of sent) {
      expect(q.headers).toMatchObject({
        "idempotency-key": "44444444-4444-4444-8444-444444444444",
        "x-service-event-uuid": "55555555-5555-4555-8555-555555555555",
        "x-service-event": "Tag Push Hook",
      });
      expect(JSON.parse(q.body)).toEqual({ object_kind: "tag_push" });
    }
    expect((await f.client.GetHook({ owner: { projectId: 6 }, hookId: id })).alertStatus).toBe("executable");
    expect(await f.svc.deps.prisma.webHookLog.count({ where: { hookId: id } })).toBe(3);

    for (let i = 0; i < 3; i++) await resend();
    const limited = (await resend().catch((e: unknown) => e)) as GrpcErr;
    expect(limited.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(JSON.parse(String(limited.metadata.get(ERROR_BODY_KEY)[0]))).toEqual({ message: RATE_LIMITED_MESSAGE });
    expect(String(limited.metadata.get("quarry-http-status")[0])).toBe("429");
    expect(await resend(2)).toEqual({ responseStatus: 200 }); // another user
    const otherHook = await f.client.CreateHook({ owner: { projectId: 6 }, input: { url: r.url } });
    const otherLog = await logFor(Number(otherHook.id));
    expect(await f.client.ResendHookEvent({ owner: { projectId: 6 }, hookId: otherHook.id, hookEventId: Number(otherLog.id), userId: 1 })).toEqual({
      responseStatus: 200,
    });
  });

  it("422 when the receiver cannot be reached; NOT_FOUND for another hook's record", async () => {
    const hook = await f.client.CreateHook({ owner: { projectId: 7 }, input: { url: "http://127.0.0.1:1/" } });
    const log = await logFor(Number(hook.id));
    const err = (await f.client
      .ResendHookEvent({ owner: { projectId: 7 }, hookId: hook.id, hookEventId: Number(log.id), userId: 1 })
      .catch((e: unknown) => e)) as GrpcErr;
    expect(err.code).toBe(status.FAILED_PRECONDITION);
    expect(String(err.metadata.get("quarry-http-status")[0])).toBe("422");
    expect(err.details).toMatch(/^Failed to open TCP connection to 127.0.0.1:1 \(Connection refused/);
    const other = await f.client.CreateHook({ owner: { projectId: 7 }, input: { url: r.url } });
    const missing = (await f.client
      .ResendHookEvent({ owner: { projectId: 7 }, hookId: other.id, hookEventId: Number(log.id), userId: 1 })
      .catch((e: unknown) => e)) as GrpcErr;
    expect(missing.code).toBe(status.NOT_FOUND);
  });
});
