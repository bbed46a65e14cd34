import { ERROR_BODY_KEY } from "@quarry/grpc";
import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, startReceiver, type Fixture, type Receiver } from "../test-fixture.ts";

type GrpcErr = { code: number; details: string; metadata: { get(k: string): unknown[] } };

describe("TestHook", () => {
  let f: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await startFixture("hook_test");
    r = await startReceiver();
  });
  afterAll(async () => {
    await r?.close();
    await f?.stop();
  });

  it("sends the sample even to a disabled hook, re-enables it on success, 422 with the body otherwise", async () => {
    const hook = await f.client.CreateHook({ owner: { projectId: 9 }, input: { url: r.url, pushEvents: false } });
    const id = Number(hook.id);
    await f.svc.deps.prisma.webHook.update({ where: { id }, data: { recentFailures: 40, permanentlyDisabled: true } });
    const test = (trigger: string) => f.client.TestHook({ owner: { projectId: 9 }, hookId: id, trigger, payloadJson: '{"object_kind":"push"}', userId: 1 });
    expect(await test("push_events")).toEqual({ responseStatus: 200 });
    expect(r.requests.at(-1)!.headers["x-service-event"]).toBe("Push Hook");
    expect((await f.client.GetHook({ owner: { projectId: 9 }, hookId: id })).alertStatus).toBe("executable");
    const logs = await f.svc.deps.prisma.webHookLog.findMany({ where: { hookId: id } });
    expect(logs.map((l) => l.trigger)).toEqual(["push_hooks"]);

    r.queue.push({ status: 400, body: "no thanks" });
    const failed = (await test("tag_push_events").catch((e: unknown) => e)) as GrpcErr;
    expect(failed.code).toBe(status.FAILED_PRECONDITION);
    expect(JSON.parse(String(failed.metadata.get(ERROR_BODY_KEY)[0]))).toEqual({ message: "no thanks" });
    expect(String(failed.metadata.get("quarry-http-status")[0])).toBe("422");

    const unavailable = (await test("wiki_page_events").catch((e: unknown) => e)) as GrpcErr;
    expect(JSON.parse(String(unavailable.metadata.get(ERROR_BODY_KEY)[0]))).toEqual({ message: "Testing not available for this hook" });

    await test("push_events");
    await test("push_events"); // the fifth request of this user on this project in this minute
    const limited = (await test("push_events").catch((e: unknown) => e)) as GrpcErr;
    expect(limited.code).toBe(status.RESOURCE_EXHAUSTED);
  });
});
