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
});
