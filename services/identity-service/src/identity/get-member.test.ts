import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("GetMember", () => {
  it("reads a direct member, an inherited one only with include_inherited", async () => {
    const owner = await f.user();
    await f.c.CreateGroup({ actor: owner, name: "GM", path: "gm" });
    const p = await f.c.CreateProject({ actor: owner, name: "gmp", namespaceId: (await f.c.GetGroup({ actor: owner, idOrPath: "gm" })).id });
    const src = { kind: "project", idOrPath: String(p.id) };
    expect(await failure(f.c.GetMember({ actor: owner, source: src, userId: owner.userId }))).toEqual({
      status: 404,
      body: { message: "404 Member Not Found" },
    });
    expect((await f.c.GetMember({ actor: owner, source: src, userId: owner.userId, includeInherited: true })).accessLevel).toBe(50);
  });
});
