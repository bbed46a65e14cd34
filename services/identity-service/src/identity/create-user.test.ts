import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("CreateUser", () => {
  it("creates a user with a personal namespace and stores only a password digest", async () => {
    const u = await f.c.CreateUser({ actor: f.admin, username: "Carol", email: "Carol@Example.com", name: "Carol C", password: "password-123" });
    expect(u).toMatchObject({ username: "Carol", email: "carol@example.com", state: "active", isAdmin: false });
    expect(Number(u.namespaceId)).toBeGreaterThan(0);
    const row = await f.deps.prisma.user.findUniqueOrThrow({ where: { id: Number(u.id) } });
    expect(row.passwordDigest).toMatch(/^scrypt\$/);
    expect(row.passwordDigest).not.toContain("password-123");
    const ns = await f.deps.prisma.namespace.findUniqueOrThrow({ where: { ownerId: row.id } });
    expect(ns).toMatchObject({ kind: "user", fullPath: "Carol", traversalIds: [ns.id] });
  });

  it("refuses duplicates case-insensitively with 409 and non-administrators with 403", async () => {
    expect(await failure(f.c.CreateUser({ actor: f.admin, username: "carol", email: "x@example.com", name: "X" }))).toEqual({
      status: 409,
      body: { message: "Username has already been taken" },
    });
    expect(await failure(f.c.CreateUser({ actor: f.admin, username: "other", email: "CAROL@example.com", name: "X" }))).toEqual({
      status: 409,
      body: { message: "Email has already been taken" },
    });
    const plain = await f.user();
    expect((await failure(f.c.CreateUser({ actor: plain, username: "z", email: "z@example.com", name: "Z" }))).status).toBe(403);
  });

  it("validates input and writes nothing on failure", async () => {
    expect(await failure(f.c.CreateUser({ actor: f.admin, username: "", email: "a@b.co", name: "A" }))).toEqual({
      status: 400,
      body: { error: "username is missing" },
    });
    expect((await failure(f.c.CreateUser({ actor: f.admin, username: "bad name", email: "a@b.co", name: "A" }))).body).toEqual({
      error: "username does not have a valid value",
    });
    expect((await failure(f.c.CreateUser({ actor: f.admin, username: "ok", email: "not-an-email", name: "A" }))).status).toBe(400);
    expect(await f.deps.prisma.user.count({ where: { usernameLower: "ok" } })).toBe(0);
  });

  it("stores the identity sent with provider and extern_uid", async () => {
    const u = await f.c.CreateUser({ actor: f.admin, username: "erin", email: "erin@example.com", name: "Erin", provider: "ldapmain", externUid: "uid=erin" });
    expect(u.identities).toEqual([{ provider: "ldapmain", externUid: "uid=erin" }]);
    expect((await f.c.GetUser({ actor: f.admin, id: u.id })).identities).toEqual([{ provider: "ldapmain", externUid: "uid=erin" }]);
    const taken = await failure(
      f.c.CreateUser({ actor: f.admin, username: "erin2", email: "erin2@example.com", name: "E", provider: "ldapmain", externUid: "UID=ERIN" }),
    );
    expect(taken.status).toBe(400);
    expect(await f.deps.prisma.user.count({ where: { usernameLower: "erin2" } })).toBe(0);
  });

  it("queues a user_create event in the same transaction", async () => {
    const u = await f.c.CreateUser({ actor: f.admin, username: "dave", email: "dave@example.com", name: "Dave" });
    const events = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.identity.user_create" } });
    expect(events.map((e) => (e.payload as { user_id: number }).user_id)).toContain(Number(u.id));
  });
});
