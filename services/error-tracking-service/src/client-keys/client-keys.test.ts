import { RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type ErrorTrackingTestContext } from "../../test/support.ts";

let t: ErrorTrackingTestContext;
beforeAll(async () => {
  t = await setUp("et_keys");
});
afterAll(() => t?.close());

describe("client keys", () => {
  it("creates active keys with distinct generated glet_ public keys, lists them oldest first, per project", async () => {
    const a = await t.client.CreateClientKey({ projectId: 10 });
    const b = await t.client.CreateClientKey({ projectId: 10 });
    await t.client.CreateClientKey({ projectId: 11 });
    expect(a).toMatchObject({ projectId: 10, active: true });
    expect(a.publicKey).toMatch(/^glet_[0-9a-f]{32}$/);
    expect(b.publicKey).not.toBe(a.publicKey);
    const list = await t.client.ListClientKeys({ projectId: 10 });
    expect(list.total).toBe(2);
    expect(list.keys.map((k) => k.id)).toEqual([a.id, b.id]);
    expect((await t.client.ListClientKeys({ projectId: 10, page: 2, perPage: 1 })).keys.map((k) => k.id)).toEqual([b.id]);
  });

  it("deletes a key of the project, answering it; another project's key or a missing one is 404 Not found", async () => {
    const key = await t.client.CreateClientKey({ projectId: 12 });
    expect(await failure(t.client.DeleteClientKey({ projectId: 13, keyId: key.id }))).toEqual({
      code: status.NOT_FOUND,
      body: { message: RECORD_NOT_FOUND_MESSAGE },
    });
    expect(await t.client.DeleteClientKey({ projectId: 12, keyId: key.id })).toEqual(key);
    expect(await failure(t.client.DeleteClientKey({ projectId: 12, keyId: key.id }))).toMatchObject({ code: status.NOT_FOUND });
    expect((await t.client.ListClientKeys({ projectId: 12 })).total).toBe(0);
  });
});
