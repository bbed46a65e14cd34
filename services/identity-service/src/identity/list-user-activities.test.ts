import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("ListUserActivities", () => {
  it("lists users active on or after `from`, least recently active first, paged", async () => {
    const a = await f.user("ua-ann");
    const b = await f.user("ua-ben");
    const c = await f.user("ua-cid");
    const set = (id: number, day: string | null) => f.deps.prisma.user.update({ where: { id }, data: { lastActivityOn: day ? new Date(day) : null } });
    await f.deps.prisma.user.updateMany({ data: { lastActivityOn: null } });
    await set(a.userId, "2026-03-10");
    await set(b.userId, "2026-02-01");
    await set(c.userId, "2026-01-31");
    const r = await f.c.ListUserActivities({ actor: f.admin, from: "2026-02-01" });
    expect(r.activities).toEqual([
      { username: "ua-ben", lastActivityOn: "2026-02-01" },
      { username: "ua-ann", lastActivityOn: "2026-03-10" },
    ]);
    expect(r.pageInfo).toEqual({ total: 2, page: 1, perPage: 20 });
    const p2 = await f.c.ListUserActivities({ actor: f.admin, from: "2026-01-01", page: { page: 2, perPage: 2 } });
    expect(p2.activities.map((x) => x.username)).toEqual(["ua-ann"]);
    expect(p2.pageInfo?.total).toBe(3);
  });

  it("shows other users only public profiles, needs a signed-in caller and a date", async () => {
    const u = await f.user("ua-dee");
    await f.deps.prisma.user.updateMany({ where: { username: "ua-ben" }, data: { privateProfile: true } });
    expect((await f.c.ListUserActivities({ actor: u, from: "2026-01-01" })).activities.map((a) => a.username)).toEqual(["ua-cid", "ua-ann"]);
    expect((await f.c.ListUserActivities({ actor: f.admin, from: "2026-01-01" })).activities.map((a) => a.username)).toEqual(["ua-cid", "ua-ben", "ua-ann"]);
    expect((await failure(f.c.ListUserActivities({ actor: f.anonymous, from: "2026-01-01" }))).status).toBe(401);
    expect((await failure(f.c.ListUserActivities({ actor: f.admin, from: "soon" }))).status).toBe(400);
  });
});
