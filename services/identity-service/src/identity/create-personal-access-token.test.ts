import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("CreatePersonalAccessToken", () => {
  it("returns the clear token once, in GitLab's format", async () => {
    const u = await f.user();
    const t = await f.c.CreatePersonalAccessToken({
      actor: f.admin,
      userId: u.userId,
      name: "deploy",
      scopes: ["read_api", "read_repository"],
      expiresAt: "2099-12-31",
    });
    expect(t.token).toMatch(/^glpat-/);
    expect(t).toMatchObject({ name: "deploy", scopes: ["read_api", "read_repository"], expiresAt: "2099-12-31", active: true, revoked: false });
    expect((await f.c.GetPersonalAccessToken({ actor: f.admin, id: t.id })).token).toBe("");
  });

  it("validates name, scopes and expiry; others' tokens need an administrator", async () => {
    const u = await f.user();
    expect((await failure(f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "", scopes: ["api"] }))).body).toEqual({
      error: "name is missing",
    });
    expect((await failure(f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "x", scopes: [] }))).body).toEqual({
      error: "scopes is missing",
    });
    expect((await failure(f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "x", scopes: ["everything"] }))).status).toBe(400);
    expect(
      (await failure(f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "x", scopes: ["api"], expiresAt: "2001-01-01" }))).status,
    ).toBe(400);
    const other = await f.user();
    expect((await failure(f.c.CreatePersonalAccessToken({ actor: u, userId: other.userId, name: "x", scopes: ["api"] }))).status).toBe(403);
  });
});
