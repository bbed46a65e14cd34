import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("ListVisibleProjects", () => {
  it("answers the readable projects with the caller's level, narrowed to a group's tree and a minimum level", async () => {
    const owner = await f.user();
    const top = await f.c.CreateGroup({ actor: owner, name: "Vis", path: "vis-top", visibility: "private" });
    const sub = await f.c.CreateGroup({ actor: owner, name: "Sub", path: "sub", parentId: top.id, visibility: "private" });
    const inTop = await f.c.CreateProject({ actor: owner, name: "A", namespaceId: top.id, visibility: "private" });
    const inSub = await f.c.CreateProject({ actor: owner, name: "B", namespaceId: sub.id, visibility: "private" });
    const elsewhere = await f.c.CreateProject({ actor: owner, name: "Pub", visibility: "public" });
    const dev = await f.user();
    await f.c.AddMember({ actor: owner, source: { kind: "group", idOrPath: String(top.id) }, userId: dev.userId, accessLevel: 10 });
    await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(inSub.id) }, userId: dev.userId, accessLevel: 30 });

    const mine = (r: { projects: { id: unknown; accessLevel: number; pathWithNamespace: string }[] }) =>
      r.projects.filter((p) => [inTop.id, inSub.id, elsewhere.id].map(Number).includes(Number(p.id))).map((p) => [Number(p.id), p.accessLevel]);
    expect(mine(await f.c.ListVisibleProjects({ actor: dev }))).toEqual([
      [Number(inTop.id), 10],
      [Number(inSub.id), 30],
      [Number(elsewhere.id), 0],
    ]);
    const inGroup = await f.c.ListVisibleProjects({ actor: dev, group: String(top.id) });
    expect(inGroup.groupFullPath).toBe("vis-top");
    expect(inGroup.projects.map((p) => [Number(p.id), p.pathWithNamespace])).toEqual([
      [Number(inTop.id), "vis-top/a"],
      [Number(inSub.id), "vis-top/sub/b"],
    ]);
    expect(mine(await f.c.ListVisibleProjects({ actor: dev, minAccessLevel: 20 }))).toEqual([[Number(inSub.id), 30]]);
    expect(mine(await f.c.ListVisibleProjects({ actor: owner }))).toEqual([
      [Number(inTop.id), 50],
      [Number(inSub.id), 50],
      [Number(elsewhere.id), 50],
    ]);
    // Anonymous callers read public projects only; a private group is invisible to outsiders.
    expect(mine(await f.c.ListVisibleProjects({}))).toEqual([[Number(elsewhere.id), 0]]);
    const outsider = await f.user();
    expect((await failure(f.c.ListVisibleProjects({ actor: outsider, group: String(top.id) }))).body).toEqual({ message: "404 Group Not Found" });
  });
});
