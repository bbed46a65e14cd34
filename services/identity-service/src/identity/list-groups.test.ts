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

describe("ListGroups filters of document 3", () => {
  it("descendants lists every group below the parent; subgroups only the direct children", async () => {
    const a = await f.user();
    const top = await f.c.CreateGroup({ actor: a, name: "Desc Top", path: `desc-top-${a.userId}` });
    const mid = await f.c.CreateGroup({ actor: a, name: "Desc Mid", path: "mid", parentId: top.id });
    await f.c.CreateGroup({ actor: a, name: "Desc Leaf", path: "leaf", parentId: mid.id });
    const names = async (descendants: boolean) => (await f.c.ListGroups({ actor: a, parentId: top.id, descendants })).groups.map((g) => g.name);
    expect(await names(false)).toEqual(["Desc Mid"]);
    expect(await names(true)).toEqual(["Desc Leaf", "Desc Mid"]);
  });

  it("active keeps every group (none is archived), archived=true none", async () => {
    const a = await f.user();
    await f.c.CreateGroup({ actor: a, name: "Act", path: `act-${a.userId}` });
    expect((await f.c.ListGroups({ actor: a, active: true })).groups.map((g) => g.name)).toEqual(["Act"]);
    expect((await f.c.ListGroups({ actor: a, archived: false })).groups.map((g) => g.name)).toEqual(["Act"]);
    expect((await f.c.ListGroups({ actor: a, active: false })).groups).toEqual([]);
    expect((await f.c.ListGroups({ actor: a, archived: true })).groups).toEqual([]);
  });

  it("order_by similarity ranks the closest path and name first", async () => {
    const a = await f.user();
    const s = `sim${a.userId}`;
    await f.c.CreateGroup({ actor: a, name: `${s} tools extra`, path: `${s}-tools-extra` });
    await f.c.CreateGroup({ actor: a, name: `${s}`, path: `${s}` });
    await f.c.CreateGroup({ actor: a, name: `${s} tools`, path: `${s}-tools` });
    const r = await f.c.ListGroups({ actor: a, search: s, orderBy: "similarity" });
    expect(r.groups.map((g) => g.path)).toEqual([s, `${s}-tools`, `${s}-tools-extra`]);
    expect(Number(r.pageInfo?.total)).toBe(3);
  });

  it("statistics: administrators get the group's own projects' sums and, for top-level groups, the hierarchy's", async () => {
    const a = await f.user();
    const top = await f.c.CreateGroup({ actor: a, name: "Stat", path: `stat-${a.userId}` });
    const sub = await f.c.CreateGroup({ actor: a, name: "Sub", path: "sub", parentId: top.id });
    const p1 = await f.c.CreateProject({ actor: a, name: "p1", namespaceId: top.id });
    const p2 = await f.c.CreateProject({ actor: a, name: "p2", namespaceId: sub.id });
    await f.deps.prisma.projectStatistics.createMany({
      data: [
        { projectId: Number(p1.id), repositorySize: 1000n, wikiSize: 10n, jobArtifactsSize: 5n, uploadsSize: 1n },
        { projectId: Number(p2.id), repositorySize: 200n },
      ],
    });
    const forAdmin = (await f.c.ListGroups({ actor: f.admin, search: `stat-${a.userId}`, statistics: true })).groups;
    expect(forAdmin[0]?.statistics).toMatchObject({ storageSize: 1016, repositorySize: 1000, wikiSize: 10, jobArtifactsSize: 5, uploadsSize: 1 });
    expect(forAdmin[0]?.rootStorageStatistics).toMatchObject({ storageSize: 1216, repositorySize: 1200 });
    const subs = (await f.c.ListGroups({ actor: f.admin, parentId: top.id, statistics: true })).groups;
    expect(subs[0]?.statistics).toMatchObject({ storageSize: 200 });
    expect(subs[0]?.rootStorageStatistics).toBeNull();
    const forOwner = (await f.c.ListGroups({ actor: a, statistics: true })).groups;
    expect(forOwner.every((g) => g.statistics === null)).toBe(true);
  });
});

describe("ListGroups keyset in name order", () => {
  it("continues after (name_after, name_after_id), ties broken by id", async () => {
    const a = await f.user();
    const t = `ks${a.userId}`;
    const x1 = await f.c.CreateGroup({ actor: a, name: `${t} same`, path: `${t}-x1` });
    const x2 = await f.c.CreateGroup({ actor: a, name: `${t} same`, path: `${t}-x2` });
    const y = await f.c.CreateGroup({ actor: a, name: `${t} later`, path: `${t}-y` });
    const pageAfter = async (name: string, id: number) =>
      (await f.c.ListGroups({ actor: a, orderBy: "name", nameAfter: name, nameAfterId: id })).groups.map((g) => g.path);
    expect(await pageAfter(`${t} later`, 0)).toEqual([`${t}-y`, `${t}-x1`, `${t}-x2`]);
    expect(await pageAfter(`${t} later`, Number(y.id))).toEqual([`${t}-x1`, `${t}-x2`]);
    expect(await pageAfter(`${t} same`, Number(x1.id))).toEqual([`${t}-x2`]);
    expect(await pageAfter(`${t} same`, Number(x2.id))).toEqual([]);
  });
});
