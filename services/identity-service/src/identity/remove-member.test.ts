import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("RemoveMember", () => {
  it("removes members, lets members leave, keeps the sole group Owner and a personal project's owner", async () => {
    const owner = await f.user();
    await f.c.CreateGroup({ actor: owner, name: "RM", path: "rm" });
    const src = { kind: "group", idOrPath: "rm" };
    const a = await f.user();
    const b = await f.user();
    await f.c.AddMember({ actor: owner, source: src, userId: a.userId, accessLevel: 30 });
    await f.c.AddMember({ actor: owner, source: src, userId: b.userId, accessLevel: 30 });
    expect((await failure(f.c.RemoveMember({ actor: a, source: src, userId: b.userId }))).status).toBe(403);
    await f.c.RemoveMember({ actor: a, source: src, userId: a.userId });
    await f.c.RemoveMember({ actor: owner, source: src, userId: b.userId });
    expect((await f.c.ListMembers({ actor: owner, source: src })).members.map((m) => m.user?.id)).toEqual([owner.userId]);
    expect(await failure(f.c.RemoveMember({ actor: owner, source: src, userId: owner.userId }))).toEqual({
      status: 409,
      body: { message: "You cannot remove the sole owner of a group" },
    });
    const p = await f.c.CreateProject({ actor: owner, name: "personal" });
    expect((await failure(f.c.RemoveMember({ actor: f.admin, source: { kind: "project", idOrPath: String(p.id) }, userId: owner.userId }))).status).toBe(403);
  });
});
