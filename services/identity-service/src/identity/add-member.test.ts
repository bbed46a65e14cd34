import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("AddMember", () => {
  it("adds by id or username; duplicates are 409, bad levels 400, unknown users 404", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "m" });
    const src = { kind: "project", idOrPath: String(p.id) };
    const dev = await f.user("devon");
    const m = await f.c.AddMember({ actor: owner, source: src, username: "DEVON", accessLevel: 30, expiresAt: "2099-01-01" });
    expect(m).toMatchObject({ accessLevel: 30, expiresAt: "2099-01-01", user: { id: dev.userId } });
    expect(m.createdBy?.id).toBe(owner.userId);
    expect(await failure(f.c.AddMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 30 }))).toEqual({
      status: 409,
      body: { message: "Member already exists" },
    });
    expect((await failure(f.c.AddMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 33 }))).body).toEqual({
      error: "access_level does not have a valid value",
    });
    expect((await failure(f.c.AddMember({ actor: owner, source: src, userId: 999999, accessLevel: 30 }))).status).toBe(404);
  });

  it("lets maintainers add members below Owner only, and hides private sources from outsiders", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "m2" });
    const src = { kind: "project", idOrPath: String(p.id) };
    const maint = await f.user();
    await f.c.AddMember({ actor: owner, source: src, userId: maint.userId, accessLevel: 40 });
    const x = await f.user();
    expect((await failure(f.c.AddMember({ actor: maint, source: src, userId: x.userId, accessLevel: 50 }))).status).toBe(403);
    expect((await f.c.AddMember({ actor: maint, source: src, userId: x.userId, accessLevel: 30 })).accessLevel).toBe(30);
    const outsider = await f.user();
    expect((await failure(f.c.AddMember({ actor: outsider, source: src, userId: outsider.userId, accessLevel: 30 }))).status).toBe(404);
  });
});
