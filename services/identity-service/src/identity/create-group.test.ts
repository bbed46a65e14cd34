import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("CreateGroup", () => {
  it("creates nested groups with full paths, traversal ids and the creator as Owner", async () => {
    const u = await f.user();
    const top = await f.c.CreateGroup({ actor: u, name: "Top", path: "top", visibility: "public" });
    expect(top).toMatchObject({ fullPath: "top", fullName: "Top", callerAccessLevel: 50, visibility: "public" });
    const sub = await f.c.CreateGroup({ actor: u, name: "Sub", path: "sub", parentId: top.id, visibility: "internal" });
    expect(sub).toMatchObject({ fullPath: "top/sub", fullName: "Top / Sub", parentId: top.id });
    const row = await f.deps.prisma.namespace.findUniqueOrThrow({ where: { id: Number(sub.id) } });
    expect(row.traversalIds).toEqual([Number(top.id), Number(sub.id)]);
  });

  it("refuses taken paths, reserved names, wider visibility than the parent and outsiders", async () => {
    const u = await f.user();
    const g = await f.c.CreateGroup({ actor: u, name: "Solo", path: "solo-grp" });
    expect((await failure(f.c.CreateGroup({ actor: u, name: "Again", path: "SOLO-grp" }))).status).toBe(400);
    expect((await failure(f.c.CreateGroup({ actor: u, name: "Api", path: "api" }))).status).toBe(400);
    expect((await failure(f.c.CreateGroup({ actor: u, name: "Open", path: "open", parentId: g.id, visibility: "public" }))).status).toBe(400);
    const outsider = await f.user();
    expect((await failure(f.c.CreateGroup({ actor: outsider, name: "In", path: "in", parentId: g.id }))).status).toBe(404);
    expect(await f.deps.prisma.namespace.count({ where: { parentId: Number(g.id) } })).toBe(0);
  });
});
