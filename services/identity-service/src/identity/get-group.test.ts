import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("GetGroup", () => {
  it("finds groups by id or full path, hiding private ones from outsiders", async () => {
    const u = await f.user();
    const g = await f.c.CreateGroup({ actor: u, name: "Priv", path: "priv" });
    const sub = await f.c.CreateGroup({ actor: u, name: "Kid", path: "kid", parentId: g.id });
    expect((await f.c.GetGroup({ actor: u, idOrPath: "PRIV/kid" })).id).toBe(sub.id);
    expect((await f.c.GetGroup({ actor: u, idOrPath: String(g.id) })).callerAccessLevel).toBe(50);
    const outsider = await f.user();
    expect(await failure(f.c.GetGroup({ actor: outsider, idOrPath: "priv" }))).toEqual({ status: 404, body: { message: "404 Group Not Found" } });
    expect((await failure(f.c.GetGroup({ actor: f.anonymous, idOrPath: "priv" }))).status).toBe(404);
    // A member of a subgroup may see the parent.
    await f.c.AddMember({ actor: u, source: { kind: "group", idOrPath: String(sub.id) }, userId: outsider.userId, accessLevel: 10 });
    expect((await f.c.GetGroup({ actor: outsider, idOrPath: "priv" })).id).toBe(g.id);
  });
});
