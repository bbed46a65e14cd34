import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("StarProject / UnstarProject", () => {
  it("keeps star_count with the stars, reports no change when already (un)starred, and never touches updated_at", async () => {
    const owner = await f.user();
    const fan = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Shiny", visibility: "public" });
    const first = await f.c.StarProject({ actor: fan, idOrPath: String(p.id) });
    expect(first.changed).toBe(true);
    expect(first.project?.starCount).toBe(1);
    expect(first.project?.updatedAt).toBe(p.updatedAt);
    const again = await f.c.StarProject({ actor: fan, idOrPath: String(p.id) });
    expect(again).toMatchObject({ changed: false, project: { starCount: 1 } });
    expect((await f.c.StarProject({ actor: owner, idOrPath: p.pathWithNamespace })).project?.starCount).toBe(2);
    expect((await f.c.GetProject({ actor: owner, idOrPath: String(p.id) })).starCount).toBe(2);

    expect(await f.c.UnstarProject({ actor: fan, idOrPath: String(p.id) })).toMatchObject({ changed: true, project: { starCount: 1 } });
    expect(await f.c.UnstarProject({ actor: fan, idOrPath: String(p.id) })).toMatchObject({ changed: false, project: { starCount: 1 } });
  });

  it("needs a user and a readable project", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Secret" });
    expect(await failure(f.c.StarProject({ actor: f.anonymous, idOrPath: String(p.id) }))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    const other = await f.user();
    expect(await failure(f.c.StarProject({ actor: other, idOrPath: String(p.id) }))).toEqual({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await f.deps.prisma.userStarProject.count({ where: { projectId: Number(p.id) } })).toBe(0);
  });

  it("filters and orders project lists by stars", async () => {
    const owner = await f.user();
    const fan = await f.user();
    const a = await f.c.CreateProject({ actor: owner, name: "Starred-a", visibility: "public" });
    const b = await f.c.CreateProject({ actor: owner, name: "Starred-b", visibility: "public" });
    await f.c.StarProject({ actor: fan, idOrPath: String(b.id) });
    await f.c.StarProject({ actor: owner, idOrPath: String(b.id) });
    await f.c.StarProject({ actor: fan, idOrPath: String(a.id) });
    const starredByFan = await f.c.ListProjects({ actor: f.anonymous, starredByUserId: fan.userId, orderBy: "star_count", sort: "desc" });
    expect(starredByFan.projects.map((x) => [x.name, x.starCount])).toEqual([
      ["Starred-b", 2],
      ["Starred-a", 1],
    ]);
    const mine = await f.c.ListProjects({ actor: owner, starred: true });
    expect(mine.projects.map((x) => x.name)).toEqual(["Starred-b"]);
    expect((await f.c.ListProjects({ actor: f.anonymous, starred: true })).projects).toEqual([]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await f.c.ListProjects({ actor: f.anonymous, starredByUserId: fan.userId, updatedAfter: future })).projects).toEqual([]);
    expect((await f.c.ListProjects({ actor: f.anonymous, starredByUserId: fan.userId, updatedBefore: future })).projects).toHaveLength(2);
  });

  it("removes stars with the project, keeping nothing dangling", async () => {
    const owner = await f.user();
    const fan = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Gone", visibility: "public" });
    await f.c.StarProject({ actor: fan, idOrPath: String(p.id) });
    await f.c.DeleteProject({ actor: owner, idOrPath: String(p.id) });
    expect(await f.deps.prisma.userStarProject.count({ where: { userId: fan.userId } })).toBe(0);
  });

  it("takes a deleted user's stars off the counts", async () => {
    const owner = await f.user();
    const fan = await f.user();
    const other = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Counted", visibility: "public" });
    await f.c.StarProject({ actor: fan, idOrPath: String(p.id) });
    await f.c.StarProject({ actor: other, idOrPath: String(p.id) });
    await f.c.DeleteUser({ actor: f.admin, id: fan.userId });
    expect((await f.c.GetProject({ actor: owner, idOrPath: String(p.id) })).starCount).toBe(1);
    expect((await f.c.ListStarrers({ actor: owner, idOrPath: String(p.id) })).starrers.map((s) => Number(s.user?.id))).toEqual([other.userId]);
  });
});
