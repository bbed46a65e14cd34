import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityFixture, ROOT_TOKEN, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("EnsureRootUser", () => {
  it("is idempotent, also when replicas race", async () => {
    const results = await Promise.all([f.c.EnsureRootUser({}), f.c.EnsureRootUser({ presetToken: "glpat-another-token-0000000000" })]);
    expect(results.every((r) => !r.created && r.token === "")).toBe(true);
    expect(await f.deps.prisma.user.count({ where: { usernameLower: "root" } })).toBe(1);
    expect((await f.c.Authenticate({ token: ROOT_TOKEN })).user?.username).toBe("root");
  });
});
