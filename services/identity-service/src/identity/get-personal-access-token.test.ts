import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("GetPersonalAccessToken", () => {
  it("reads own tokens; someone else's is 404 like a missing one", async () => {
    const a = await f.user();
    const b = await f.user();
    const t = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: a.userId, name: "a", scopes: ["api"] });
    expect((await f.c.GetPersonalAccessToken({ actor: a, id: t.id })).name).toBe("a");
    expect(await failure(f.c.GetPersonalAccessToken({ actor: b, id: t.id }))).toEqual({ status: 404, body: { message: "404 Token Not Found" } });
    expect((await f.c.GetPersonalAccessToken({ actor: f.admin, id: t.id })).userId).toBe(a.userId);
  });
});

describe("impersonation tokens", () => {
  it("are made by administrators only, need scopes, authenticate as the user, and are found only as impersonation tokens of their user", async () => {
    const a = await f.user();
    const b = await f.user();
    expect((await failure(f.c.CreatePersonalAccessToken({ actor: a, userId: a.userId, name: "i", scopes: ["api"], impersonation: true }))).status).toBe(403);
    expect(await failure(f.c.CreatePersonalAccessToken({ actor: f.admin, userId: a.userId, name: "i", scopes: [], impersonation: true }))).toEqual({
      status: 400,
      body: { message: { scopes: ["can't be blank"] } },
    });
    const imp = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: a.userId, name: "i", scopes: ["api"], impersonation: true });
    expect(imp.impersonation).toBe(true);
    expect((await f.c.Authenticate({ token: imp.token })).user?.id).toBe(a.userId);
    const personal = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: a.userId, name: "p", scopes: ["api"] });
    const listed = await f.c.ListPersonalAccessTokens({ actor: f.admin, userId: a.userId, impersonation: true });
    expect(listed.tokens.map((t) => t.name)).toEqual(["i"]);
    expect((await f.c.GetPersonalAccessToken({ actor: f.admin, id: imp.id, userId: a.userId, impersonation: true })).name).toBe("i");
    const missing = { status: 404, body: { message: "404 Impersonation Token Not Found" } };
    expect(await failure(f.c.GetPersonalAccessToken({ actor: f.admin, id: personal.id, userId: a.userId, impersonation: true }))).toEqual(missing);
    expect(await failure(f.c.GetPersonalAccessToken({ actor: f.admin, id: imp.id, userId: b.userId, impersonation: true }))).toEqual(missing);
    expect(await failure(f.c.RevokePersonalAccessToken({ actor: f.admin, id: imp.id, userId: b.userId, impersonation: true }))).toEqual(missing);
    await f.c.RevokePersonalAccessToken({ actor: f.admin, id: imp.id, userId: a.userId, impersonation: true });
    // Revoking again is GitLab's token.revoke! once more: no error.
    await f.c.RevokePersonalAccessToken({ actor: f.admin, id: imp.id, userId: a.userId, impersonation: true });
    expect((await failure(f.c.Authenticate({ token: imp.token }))).status).toBe(401);
  });
});
