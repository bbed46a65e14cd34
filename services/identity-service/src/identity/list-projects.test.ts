import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("ListProjects", () => {
  it("lists what the caller may see, with membership, owned, search and visibility filters", async () => {
    const a = await f.user();
    const b = await f.user();
    await f.c.CreateProject({ actor: a, name: "a-private" });
    await f.c.CreateProject({ actor: a, name: "a-public", visibility: "public" });
    await f.c.CreateProject({ actor: a, name: "a-internal", visibility: "internal" });
    const g = await f.c.CreateGroup({ actor: b, name: "BG", path: "bg" });
    await f.c.CreateProject({ actor: b, name: "b-group", namespaceId: g.id });
    const names = async (r: Promise<{ projects: { name: string }[] }>) => (await r).projects.map((p) => p.name).sort();
    expect(await names(f.c.ListProjects({ actor: f.anonymous }))).toEqual(["a-public"]);
    expect(await names(f.c.ListProjects({ actor: b }))).toEqual(["a-internal", "a-public", "b-group"]);
    expect(await names(f.c.ListProjects({ actor: b, membership: true }))).toEqual(["b-group"]);
    expect(await names(f.c.ListProjects({ actor: a, owned: true }))).toEqual(["a-internal", "a-private", "a-public"]);
    expect(await names(f.c.ListProjects({ actor: a, search: "PRIV" }))).toEqual(["a-private"]);
    expect(await names(f.c.ListProjects({ actor: f.admin, visibility: "internal" }))).toEqual(["a-internal"]);
    expect(await names(f.c.ListProjects({ actor: b, namespaceId: g.id }))).toEqual(["b-group"]);
    const paged = await f.c.ListProjects({ actor: f.admin, orderBy: "name", sort: "asc", page: { page: 2, perPage: 2 } });
    expect(paged.projects.map((p) => p.name)).toEqual(["a-public", "b-group"]);
    expect(Number(paged.pageInfo!.total)).toBe(4);
  });
});
