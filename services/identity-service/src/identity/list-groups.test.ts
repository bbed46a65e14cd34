import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("ListGroups", () => {
  it("lists memberships for users, everything visible with all_available, public ones anonymously", async () => {
    const a = await f.user();
    const b = await f.user();
    await f.c.CreateGroup({ actor: a, name: "Alpha", path: "alpha", visibility: "public" });
    const beta = await f.c.CreateGroup({ actor: b, name: "Beta", path: "beta" });
    await f.c.CreateGroup({ actor: b, name: "Gamma", path: "gamma", visibility: "internal" });
    await f.c.CreateGroup({ actor: b, name: "Child", path: "child", parentId: beta.id });
    const names = async (r: Promise<{ groups: { name: string }[] }>) => (await r).groups.map((g) => g.name);
    expect(await names(f.c.ListGroups({ actor: a }))).toEqual(["Alpha"]);
    expect(await names(f.c.ListGroups({ actor: a, allAvailable: true }))).toEqual(["Alpha", "Gamma"]);
    expect(await names(f.c.ListGroups({ actor: f.anonymous }))).toEqual(["Alpha"]);
    expect(await names(f.c.ListGroups({ actor: b, topLevelOnly: true }))).toEqual(["Beta", "Gamma"]);
    expect(await names(f.c.ListGroups({ actor: b, parentId: beta.id }))).toEqual(["Child"]);
    expect(await names(f.c.ListGroups({ actor: f.admin, search: "amm" }))).toEqual(["Gamma"]);
    expect(await names(f.c.ListGroups({ actor: f.admin, orderBy: "name", sort: "desc", page: { perPage: 2 } }))).toEqual(["Gamma", "Child"]);
  });
});
