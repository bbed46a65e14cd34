import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("GetUsers", () => {
  it("reads several users in one call, each once, leaving out ids of no user", async () => {
    const a = await f.user("gu-ada");
    const b = await f.user("gu-bob");
    const got = await f.c.GetUsers({ actor: a, ids: [b.userId, a.userId, b.userId, 999999, 0] });
    expect(got.users.map((u) => u.username).sort()).toEqual(["gu-ada", "gu-bob"]);
    expect(got.users.find((u) => u.username === "gu-bob")).toEqual(await f.c.GetUser({ actor: a, id: b.userId }));
    expect((await f.c.GetUsers({ actor: a, ids: [] })).users).toEqual([]);
  });

  it("takes at most 1000 ids", async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => i + 1);
    expect((await failure(f.c.GetUsers({ actor: f.admin, ids }))).status).toBe(400);
  });
});
