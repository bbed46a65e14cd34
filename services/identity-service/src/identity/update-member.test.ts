import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("UpdateMember", () => {
  it("changes level and expiry; never leaves a group without an Owner", async () => {
    const owner = await f.user();
    await f.c.CreateGroup({ actor: owner, name: "UM", path: "um" });
    const src = { kind: "group", idOrPath: "um" };
    const u = await f.user();
    await f.c.AddMember({ actor: owner, source: src, userId: u.userId, accessLevel: 20 });
    expect(await f.c.UpdateMember({ actor: owner, source: src, userId: u.userId, accessLevel: 40, expiresAt: "2099-02-02" })).toMatchObject({
      accessLevel: 40,
      expiresAt: "2099-02-02",
    });
    expect((await failure(f.c.UpdateMember({ actor: owner, source: src, userId: owner.userId, accessLevel: 40 }))).status).toBe(409);
    expect((await failure(f.c.UpdateMember({ actor: u, source: src, userId: u.userId, accessLevel: 50 }))).status).toBe(403);
    expect((await failure(f.c.UpdateMember({ actor: owner, source: src, userId: 424242, accessLevel: 30 }))).status).toBe(404);
  });
});
