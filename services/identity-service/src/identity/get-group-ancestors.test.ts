import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("GetGroupAncestors", () => {
  it("answers a group's or a project's group chain, nearest first, in one call", async () => {
    const u = await f.user();
    const top = await f.c.CreateGroup({ actor: u, name: "Top", path: "anc-top" });
    const mid = await f.c.CreateGroup({ actor: u, name: "Mid", path: "mid", parentId: top.id });
    const leaf = await f.c.CreateGroup({ actor: u, name: "Leaf", path: "leaf", parentId: mid.id });
    const project = await f.c.CreateProject({ actor: u, name: "P", namespaceId: leaf.id });
    const personal = await f.c.CreateProject({ actor: u, name: "Mine" });

    const ids = (r: { groupIds: unknown[] }) => r.groupIds.map(Number);
    const chain = [leaf.id, mid.id, top.id].map(Number);
    expect(ids(await f.c.GetGroupAncestors({ actor: u, groupId: leaf.id }))).toEqual(chain);
    expect(ids(await f.c.GetGroupAncestors({ actor: u, groupId: top.id }))).toEqual([Number(top.id)]);
    expect(ids(await f.c.GetGroupAncestors({ actor: u, projectId: project.id }))).toEqual(chain);
    expect(ids(await f.c.GetGroupAncestors({ actor: u, projectId: personal.id }))).toEqual([]);
    expect(ids(await f.c.GetGroupAncestors({ actor: f.admin, projectId: project.id }))).toEqual(chain);
  });

  it("hides what the caller cannot see; needs a group or a project", async () => {
    const u = await f.user();
    const g = await f.c.CreateGroup({ actor: u, name: "Hidden", path: "anc-hidden" });
    const p = await f.c.CreateProject({ actor: u, name: "Q", namespaceId: g.id });
    const outsider = await f.user();
    expect((await failure(f.c.GetGroupAncestors({ actor: outsider, groupId: g.id }))).status).toBe(404);
    expect((await failure(f.c.GetGroupAncestors({ actor: outsider, projectId: p.id }))).status).toBe(404);
    expect((await failure(f.c.GetGroupAncestors({ actor: u }))).status).toBe(400);
  });
});
