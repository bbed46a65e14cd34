import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("ListPersonalAccessTokens", () => {
  it("shows users their own tokens and administrators everyone's, with filters", async () => {
    const a = await f.user();
    const b = await f.user();
    const ta = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: a.userId, name: "alpha", scopes: ["api"] });
    await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: b.userId, name: "beta", scopes: ["api"] });
    const mine = await f.c.ListPersonalAccessTokens({ actor: a });
    expect(mine.tokens.map((t) => t.name)).toEqual(["alpha"]);
    expect(mine.tokens[0]!.token).toBe("");
    const ofB = await f.c.ListPersonalAccessTokens({ actor: f.admin, userId: b.userId });
    expect(ofB.tokens.map((t) => t.name)).toEqual(["beta"]);
    await f.c.RevokePersonalAccessToken({ actor: a, id: ta.id });
    expect((await f.c.ListPersonalAccessTokens({ actor: a, state: "active" })).tokens).toHaveLength(0);
    expect((await f.c.ListPersonalAccessTokens({ actor: a, revoked: true })).tokens.map((t) => t.name)).toEqual(["alpha"]);
    expect((await f.c.ListPersonalAccessTokens({ actor: f.admin, search: "BET" })).tokens.map((t) => t.name)).toEqual(["beta"]);
  });
});
