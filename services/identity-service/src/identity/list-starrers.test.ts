import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("ListStarrers", () => {
  it("lists newest star first, searches names and usernames, and hides private profiles from others", async () => {
    const owner = await f.user();
    const ann = await f.user("starrer-ann");
    const bob = await f.user("starrer-bob");
    const p = await f.c.CreateProject({ actor: owner, name: "Loved", visibility: "public" });
    await f.c.StarProject({ actor: ann, idOrPath: String(p.id) });
    await f.c.StarProject({ actor: bob, idOrPath: String(p.id) });
    const all = await f.c.ListStarrers({ actor: f.anonymous, idOrPath: String(p.id) });
    expect(all.starrers.map((s) => s.user?.username)).toEqual(["starrer-bob", "starrer-ann"]);
    expect(Number(all.pageInfo?.total)).toBe(2);
    expect(Date.parse(all.starrers[0]!.starredSince)).not.toBeNaN();
    expect((await f.c.ListStarrers({ actor: f.anonymous, idOrPath: String(p.id), search: "ANN" })).starrers.map((s) => s.user?.username)).toEqual([
      "starrer-ann",
    ]);

    await f.c.UpdateUser({ actor: f.admin, id: bob.userId, profile: { privateProfile: true } });
    expect((await f.c.ListStarrers({ actor: ann, idOrPath: String(p.id) })).starrers.map((s) => s.user?.username)).toEqual(["starrer-ann"]);
    expect((await f.c.ListStarrers({ actor: bob, idOrPath: String(p.id) })).starrers).toHaveLength(2);
    expect((await f.c.ListStarrers({ actor: f.admin, idOrPath: String(p.id) })).starrers).toHaveLength(2);
  });

  it("answers 404 for a project the caller cannot read", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Private" });
    expect((await failure(f.c.ListStarrers({ actor: f.anonymous, idOrPath: String(p.id) }))).status).toBe(404);
  });
});
