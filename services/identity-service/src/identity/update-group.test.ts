import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("UpdateGroup", () => {
  it("renames a group and carries the new path to descendants and their projects", async () => {
    const u = await f.user();
    const g = await f.c.CreateGroup({ actor: u, name: "Old", path: "old" });
    const sub = await f.c.CreateGroup({ actor: u, name: "Sub", path: "sub", parentId: g.id });
    const p = await f.c.CreateProject({ actor: u, name: "proj", namespaceId: sub.id });
    const updated = await f.c.UpdateGroup({ actor: u, idOrPath: "old", path: "new", name: "New", description: "d" });
    expect(updated).toMatchObject({ fullPath: "new", fullName: "New", description: "d" });
    expect((await f.c.GetGroup({ actor: u, idOrPath: String(sub.id) })).fullPath).toBe("new/sub");
    expect((await f.c.GetProject({ actor: u, idOrPath: "new/sub/proj" })).id).toBe(p.id);
  });

  it("needs Owner, and keeps visibility consistent with parents and children", async () => {
    const u = await f.user();
    const g = await f.c.CreateGroup({ actor: u, name: "Vis", path: "vis", visibility: "public" });
    await f.c.CreateProject({ actor: u, name: "pub", namespaceId: g.id, visibility: "public" });
    expect((await failure(f.c.UpdateGroup({ actor: u, idOrPath: "vis", visibility: "private" }))).status).toBe(400);
    const dev = await f.user();
    await f.c.AddMember({ actor: u, source: { kind: "group", idOrPath: "vis" }, userId: dev.userId, accessLevel: 40 });
    expect((await failure(f.c.UpdateGroup({ actor: dev, idOrPath: "vis", description: "x" }))).status).toBe(403);
  });
});
