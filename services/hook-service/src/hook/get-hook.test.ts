import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type Fixture } from "../test-fixture.ts";

describe("GetHook", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_get");
  });
  afterAll(() => f?.stop());

  it("returns the owner's hook with its alert status; other owners get NOT_FOUND", async () => {
    const created = await f.client.CreateHook({ owner: { groupId: 4 }, input: { url: "http://127.0.0.1:9/" } });
    expect(await f.client.GetHook({ owner: { groupId: 4 }, hookId: created.id })).toEqual(created);
    const until = new Date(Date.now() + 60_000);
    await f.svc.deps.prisma.webHook.update({ where: { id: Number(created.id) }, data: { disabledUntil: until, recentFailures: 4 } });
    expect(await f.client.GetHook({ owner: { groupId: 4 }, hookId: created.id })).toMatchObject({
      alertStatus: "temporarily_disabled",
      disabledUntil: until.toISOString(),
    });
    for (const owner of [{ groupId: 5 }, { projectId: 4 }]) {
      const err = await f.client.GetHook({ owner, hookId: created.id }).catch((e: { code: number; details: string }) => e);
      expect(err).toMatchObject({ code: status.NOT_FOUND, details: "404 Hook Not Found" });
    }
    const missing = await f.client.GetHook({ owner: { groupId: 4 }, hookId: 99_999_999_999 }).catch((e: { code: number }) => e);
    expect((missing as { code: number }).code).toBe(status.NOT_FOUND);
  });
});
