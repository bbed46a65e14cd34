import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeHook, PERMANENTLY_DISABLED_AFTER, RESPONSE_BODY_LIMIT } from "./execute.ts";
import { startFixture, startReceiver, type Fixture, type Receiver } from "../test-fixture.ts";

const delivery = (payload: unknown = { object_kind: "push", ref: "refs/heads/main" }) => ({
  trigger: "push_hooks",
  payload,
  idempotencyKey: "11111111-1111-4111-8111-111111111111",
  eventUuid: "22222222-2222-4222-8222-222222222222",
});

describe("executeHook", () => {
  let f: Fixture;
  let guarded: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await startFixture("hook_execute");
    guarded = await startFixture("hook_execute_guarded", { allowLocalRequests: false });
    r = await startReceiver();
  });
  afterAll(async () => {
    await r?.close();
    await f?.stop();
    await guarded?.stop();
  });

  const newHook = async (fx: Fixture, data: Record<string, unknown> = {}) => {
    const h = await fx.client.CreateHook({ owner: { projectId: 1 }, input: { url: `${r.url}/x`, ...data } });
    return fx.svc.deps.prisma.webHook.findUniqueOrThrow({ where: { id: Number(h.id) } });
  };

  it("sends the headers, the payload or the rendered template; records the attempt with secrets redacted", async () => {
    const hook = await newHook(f, { token: "tk", customHeaders: [{ key: "X-C", value: "cv" }], customWebhookTemplate: '{"r":"{{ref}}"}' });
    r.queue.push({ status: 201, body: "x".repeat(RESPONSE_BODY_LIMIT + 100) });
    const result = await executeHook(f.svc.deps, hook, delivery());
    expect(result).toMatchObject({ status: 201, success: true, retryable: false, error: null });
    const got = r.requests.at(-1)!;
    expect(got.body).toBe('{"r":"refs/heads/main"}');
    expect(got.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "GitLab/18.5.0",
      "idempotency-key": "11111111-1111-4111-8111-111111111111",
      "x-service-event": "Push Hook",
      "x-service-webhook-uuid": hook.uuid,
      "x-service-instance": "https://quarry.test",
      "x-service-event-uuid": "22222222-2222-4222-8222-222222222222",
      "x-service-token": "tk",
      "x-c": "cv",
    });
    const log = await f.svc.deps.prisma.webHookLog.findUniqueOrThrow({ where: { id: result.logId } });
    expect(log).toMatchObject({ responseStatus: "201", trigger: "push_hooks", url: `${r.url}/x`, internalErrorMessage: null });
    expect(log.requestHeaders).toMatchObject({ "X-Service-Token": "[REDACTED]", "X-C": "[REDACTED]" });
    expect(log.requestData).toEqual(delivery().payload);
    expect(log.responseBody).toHaveLength(RESPONSE_BODY_LIMIT);
    expect(log.responseHeaders).toMatchObject({ "x-answer": "201" });
  });

  it("5xx and network errors are retryable failures, 4xx final; no response is recorded as an internal error", async () => {
    const hook = await newHook(f);
    r.queue.push({ status: 503 }, { status: 404 });
    expect(await executeHook(f.svc.deps, hook, delivery())).toMatchObject({ status: 503, success: false, retryable: true });
    expect(await executeHook(f.svc.deps, hook, delivery())).toMatchObject({ status: 404, success: false, retryable: false });
    const dead = { ...hook, url: "http://127.0.0.1:1/" };
    const result = await executeHook(f.svc.deps, dead, delivery());
    expect(result).toMatchObject({ status: null, success: false, retryable: true });
    const log = await f.svc.deps.prisma.webHookLog.findUniqueOrThrow({ where: { id: result.logId } });
    expect(log).toMatchObject({ responseStatus: "internal error", responseBody: "" });
    expect(log.internalErrorMessage).toBe('Failed to open TCP connection to 127.0.0.1:1 (Connection refused - connect(2) for "127.0.0.1" port 1)');
  });

  it("times out, follows no redirect, and verifies TLS certificates unless told not to", async () => {
    const hook = await newHook(f);
    const quick = { ...f.svc.deps, settings: { ...f.svc.deps.settings, timeoutMs: 200 } };
    r.queue.push({ status: 0 });
    const timedOut = await executeHook(quick, hook, delivery());
    expect(timedOut).toMatchObject({ status: null, success: false, retryable: true, error: "execution expired" });

    const before = r.requests.length;
    r.queue.push({ status: 302 });
    expect(await executeHook(f.svc.deps, hook, delivery())).toMatchObject({ status: 302, success: false, retryable: false });
    expect(r.requests.slice(before).map((q) => q.path)).toEqual(["/x"]);

    const tls = await startReceiver(200, { tls: true });
    try {
      const verified = await newHook(f, { url: tls.url });
      const refused = await executeHook(f.svc.deps, verified, delivery());
      expect(refused).toMatchObject({ status: null, success: false });
      expect(refused.error).toMatch(/self[- ]signed/i);
      expect(tls.requests).toHaveLength(0);
      const unverified = await newHook(f, { url: tls.url, enableSslVerification: false });
      expect(await executeHook(f.svc.deps, unverified, delivery())).toMatchObject({ status: 200, success: true });
      expect(tls.requests).toHaveLength(1);
    } finally {
      await tls.close();
    }
  });

  it("re-checks the address at delivery: a local address is refused without local requests allowed", async () => {
    // Stored directly (as if DNS had pointed elsewhere when it was saved), delivered by a service that refuses local addresses.
    const hook = await guarded.svc.deps.prisma.webHook.create({ data: { projectId: 1, url: `${r.url}/x`, uuid: "33333333-3333-4333-8333-333333333333" } });
    const before = r.requests.length;
    const result = await executeHook(guarded.svc.deps, hook, delivery());
    expect(result).toMatchObject({ status: null, success: false, retryable: false, error: "URL is blocked: Requests to localhost are not allowed" });
    expect(r.requests).toHaveLength(before);
    const viaName = await executeHook(guarded.svc.deps, { ...hook, url: r.url.replace("127.0.0.1", "localhost") }, delivery());
    expect(viaName.error).toBe("URL is blocked: Requests to localhost are not allowed");
    expect(r.requests).toHaveLength(before);
  });

  it("disables after 4 consecutive failures with growing back-off, permanently after 40; success resets", async () => {
    const hook = await newHook(f);
    const state = () => f.svc.deps.prisma.webHook.findUniqueOrThrow({ where: { id: hook.id } });
    r.status = 500;
    try {
      for (let i = 0; i < 3; i++) await executeHook(f.svc.deps, hook, delivery());
      expect(await state()).toMatchObject({ recentFailures: 3, backoffCount: 0, disabledUntil: null });
      let t0 = Date.now();
      await executeHook(f.svc.deps, hook, delivery());
      let s = await state();
      expect(s).toMatchObject({ recentFailures: 4, backoffCount: 1 });
      expect(s.disabledUntil!.getTime() - t0).toBeGreaterThanOrEqual(60_000);
      expect(s.disabledUntil!.getTime() - t0).toBeLessThan(120_000);
      // A failure while disabled (a test or resend) does not count.
      await executeHook(f.svc.deps, hook, delivery());
      expect(await state()).toMatchObject({ recentFailures: 4, backoffCount: 1 });
      // Once the disablement has run out, the next failure disables it for twice as long.
      await f.svc.deps.prisma.webHook.update({ where: { id: hook.id }, data: { disabledUntil: new Date(Date.now() - 1000) } });
      t0 = Date.now();
      await executeHook(f.svc.deps, hook, delivery());
      s = await state();
      expect(s).toMatchObject({ recentFailures: 5, backoffCount: 2 });
      expect(s.disabledUntil!.getTime() - t0).toBeGreaterThanOrEqual(120_000);

      await f.svc.deps.prisma.webHook.update({
        where: { id: hook.id },
        data: { recentFailures: PERMANENTLY_DISABLED_AFTER - 1, disabledUntil: new Date(Date.now() - 1000) },
      });
      await executeHook(f.svc.deps, hook, delivery());
      expect(await state()).toMatchObject({ recentFailures: 40, permanentlyDisabled: true, disabledUntil: null });
      expect((await f.client.GetHook({ owner: { projectId: 1 }, hookId: hook.id })).alertStatus).toBe("disabled");
    } finally {
      r.status = 200;
    }
    await executeHook(f.svc.deps, hook, delivery());
    expect(await state()).toMatchObject({ recentFailures: 0, backoffCount: 0, disabledUntil: null, permanentlyDisabled: false });
  });
});
