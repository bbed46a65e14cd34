import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("UpdateUser", () => {
  it("changes only the fields sent, and moves the personal namespace with the username", async () => {
    const u = await f.user("fred");
    const updated = await f.c.UpdateUser({ actor: f.admin, id: u.userId, username: "freddy", profile: { bio: "hi" } });
    expect(updated).toMatchObject({ username: "freddy", bio: "hi", name: "User fred" });
    const ns = await f.deps.prisma.namespace.findUniqueOrThrow({ where: { ownerId: u.userId } });
    expect(ns.fullPath).toBe("freddy");
  });

  it("is for administrators, and refuses a taken username", async () => {
    const a = await f.user("gina");
    const b = await f.user("hank");
    expect((await failure(f.c.UpdateUser({ actor: a, id: a.userId, name: "me" }))).status).toBe(403);
    expect((await failure(f.c.UpdateUser({ actor: f.admin, id: a.userId, username: "HANK" }))).status).toBe(409);
    expect((await f.c.GetUser({ actor: f.admin, id: b.userId })).username).toBe("hank");
  });

  it("stores one identity per provider, replacing its extern_uid, and keeps extern_uid unique per provider", async () => {
    const a = await f.user("ivy");
    const b = await f.user("jack");
    await f.c.UpdateUser({ actor: f.admin, id: a.userId, provider: "github", externUid: "gh-1" });
    const updated = await f.c.UpdateUser({ actor: f.admin, id: a.userId, provider: "github", externUid: "gh-2" });
    expect(updated.identities).toEqual([{ provider: "github", externUid: "gh-2" }]);
    const both = await f.c.UpdateUser({ actor: f.admin, id: a.userId, provider: "ldapmain", externUid: "uid=ivy" });
    expect(both.identities).toEqual([
      { provider: "github", externUid: "gh-2" },
      { provider: "ldapmain", externUid: "uid=ivy" },
    ]);
    expect(await failure(f.c.UpdateUser({ actor: f.admin, id: b.userId, provider: "github", externUid: "GH-2", name: "Jack J" }))).toEqual({
      status: 400,
      body: { message: { "identities.extern_uid": ["has already been taken"] } },
    });
    expect((await f.c.GetUser({ actor: f.admin, id: b.userId })).name).toBe("User jack"); // no partial write
  });

  it("needs provider and extern_uid together", async () => {
    const a = await f.user("kate");
    expect(await failure(f.c.UpdateUser({ actor: f.admin, id: a.userId, provider: "github", name: "K" }))).toEqual({
      status: 400,
      body: { error: "extern_uid, provider provide all or none of parameters" },
    });
    expect((await f.c.GetUser({ actor: f.admin, id: a.userId })).identities).toEqual([]);
  });
});
