import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, ROOT_TOKEN, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("Authenticate", () => {
  it("resolves a token to its user and scopes by digest", async () => {
    const r = await f.c.Authenticate({ token: ROOT_TOKEN });
    expect(r.user).toMatchObject({ username: "root", isAdmin: true });
    expect(r.scopes).toContain("api");
    const stored = await f.deps.prisma.personalAccessToken.findMany({ select: { tokenDigest: true } });
    expect(stored.every((t) => /^[0-9a-f]{64}$/.test(t.tokenDigest) && t.tokenDigest !== ROOT_TOKEN)).toBe(true);
  });

  it("rejects unknown, revoked and expired tokens", async () => {
    expect(await failure(f.c.Authenticate({ token: "glpat-nope" }))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    const u = await f.user();
    const t = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "t", scopes: ["api"] });
    expect((await f.c.Authenticate({ token: t.token })).user?.id).toBe(u.userId);
    await f.c.RevokePersonalAccessToken({ actor: u, id: t.id });
    expect((await failure(f.c.Authenticate({ token: t.token }))).status).toBe(401);

    const t2 = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "t2", scopes: ["api"] });
    await f.deps.prisma.personalAccessToken.update({ where: { id: Number(t2.id) }, data: { expiresAt: new Date("2020-01-01") } });
    expect((await failure(f.c.Authenticate({ token: t2.token }))).status).toBe(401);
  });

  it("answers a blocked user's token with the user and their state (the gateway refuses it), and records activity only for active users", async () => {
    const u = await f.user();
    const t = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "t", scopes: ["api"] });
    const today = new Date().toISOString().slice(0, 10);
    const before = await f.deps.prisma.user.findUniqueOrThrow({ where: { id: u.userId } });
    expect(before.lastActivityOn).toBeNull();
    expect((await f.c.Authenticate({ token: t.token })).user).toMatchObject({ state: "active", lastActivityOn: today });
    const after = await f.deps.prisma.user.findUniqueOrThrow({ where: { id: u.userId } });
    expect(after.updatedAt).toEqual(before.updatedAt);
    await f.deps.prisma.user.update({ where: { id: u.userId }, data: { state: "blocked", lastActivityOn: null } });
    expect((await f.c.Authenticate({ token: t.token })).user).toMatchObject({ state: "blocked", lastActivityOn: "" });
  });
});
