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
