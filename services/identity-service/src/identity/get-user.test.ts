import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("GetUser", () => {
  it("reads a user by id and answers 404 User Not Found otherwise", async () => {
    const u = await f.user("erin");
    expect(await f.c.GetUser({ actor: u, id: u.userId })).toMatchObject({ username: "erin", namespaceId: u.namespaceId });
    expect(await failure(f.c.GetUser({ actor: u, id: 999999 }))).toEqual({ status: 404, body: { message: "404 User Not Found" } });
  });
});
