import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type Fixture } from "../test-fixture.ts";
import { statusValues } from "./list-hook-events.ts";

describe("statusValues", () => {
  it("takes codes and the three categories, refuses anything else", () => {
    expect(statusValues("")).toBeNull();
    expect(statusValues("404")).toEqual(["404"]);
    expect(statusValues("successful")).toHaveLength(100);
    expect(statusValues("client_failure,500")).toContain("500");
    expect(() => statusValues("teapot")).toThrow("status does not have a valid value");
    expect(() => statusValues("99")).toThrow();
  });
});

describe("ListHookEvents", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_events");
  });
  afterAll(() => f?.stop());

  it("lists the last seven days newest first, by status, paged", async () => {
    const hook = await f.client.CreateHook({ owner: { projectId: 2 }, input: { url: "http://127.0.0.1:9/" } });
    const other = await f.client.CreateHook({ owner: { projectId: 2 }, input: { url: "http://127.0.0.1:9/o" } });
    const day = 24 * 3600_000;
    const rows = [
      ["200", 1],
      ["500", 2],
      ["404", 3],
      ["internal error", 4],
      ["201", 5],
      ["200", 8 * day], // older than seven days
    ] as const;
    const keys = { idempotencyKey: "00000000-0000-4000-8000-000000000001", eventUuid: "00000000-0000-4000-8000-000000000002" };
    for (const [responseStatus, age] of rows) {
      await f.svc.deps.prisma.webHookLog.create({
        data: {
          hookId: Number(hook.id),
          trigger: "push_hooks",
          url: "http://127.0.0.1:9/",
          requestHeaders: { "X-Service-Token": "[REDACTED]" },
          requestData: { age },
          responseHeaders: { a: "b" },
          responseBody: "ok",
          responseStatus,
          executionDuration: 0.25,
          createdAt: new Date(Date.now() - age * 1000),
          ...keys,
        },
      });
    }
    await f.svc.deps.prisma.webHookLog.create({
      data: {
        hookId: Number(other.id),
        trigger: "push_hooks",
        url: "u",
        requestHeaders: {},
        requestData: {},
        responseHeaders: {},
        responseBody: "",
        responseStatus: "200",
        executionDuration: 0,
        ...keys,
      },
    });
    const list = (q: { status?: string; page?: number; perPage?: number }) => f.client.ListHookEvents({ owner: { projectId: 2 }, hookId: hook.id, ...q });

    const all = await list({});
    expect(all.total).toBe(5);
    expect(all.events.map((e) => e.responseStatus)).toEqual(["200", "500", "404", "internal error", "201"]);
    expect(all.events[0]).toMatchObject({
      trigger: "push_hooks",
      url: "http://127.0.0.1:9/",
      responseBody: "ok",
      executionDuration: 0.25,
      internalErrorMessage: "",
    });
    expect(JSON.parse(all.events[0]!.requestHeadersJson)).toEqual({ "X-Service-Token": "[REDACTED]" });
    expect(JSON.parse(all.events[0]!.requestDataJson)).toEqual({ age: 1 });
    expect(JSON.parse(all.events[0]!.responseHeadersJson)).toEqual({ a: "b" });

    expect((await list({ status: "successful" })).events.map((e) => e.responseStatus)).toEqual(["200", "201"]);
    expect((await list({ status: "client_failure" })).events.map((e) => e.responseStatus)).toEqual(["404"]);
    expect((await list({ status: "server_failure" })).events.map((e) => e.responseStatus)).toEqual(["500"]);
    expect((await list({ status: "500" })).total).toBe(1);
    const page = await list({ page: 2, perPage: 2 });
    expect(page.total).toBe(5);
    expect(page.events.map((e) => e.responseStatus)).toEqual(["404", "internal error"]);
    const err = await list({ status: "sometimes" }).catch((e: { code: number }) => e);
    expect((err as { code: number }).code).toBe(status.INVALID_ARGUMENT);
    const foreign = await f.client.ListHookEvents({ owner: { projectId: 3 }, hookId: hook.id }).catch((e: { code: number }) => e);
    expect((foreign as { code: number }).code).toBe(status.NOT_FOUND);
  });
});
