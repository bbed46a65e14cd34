import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f?.close());

const DAY = 24 * 60 * 60 * 1000;

describe("ChangeUserState", () => {
  it("blocks (null when already blocked, blocked_by noted), unblocks (false when active), and refuses self and LDAP blocks", async () => {
    const u = await f.user();
    const t = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "t", scopes: ["api"] });
    const blocked = await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "block" });
    expect(blocked).toMatchObject({ noop: false, changed: true, user: { state: "blocked" } });
    // Every gateway hears that the user's tokens must leave its cache.
    const events = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.identity.token_revoke" } });
    expect(events.some((e) => (e.payload as { token_id: number }).token_id === Number(t.id))).toBe(true);
    const note = await f.deps.prisma.customAttribute.findUniqueOrThrow({ where: { userId_key: { userId: u.userId, key: "blocked_by" } } });
    expect(note.value).toMatch(new RegExp(`^root/${f.admin.userId}\\+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC$`));
    expect(await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "block" })).toMatchObject({ noop: true });
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "activate" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - A blocked user must be unblocked to be activated" },
    });
    expect(await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "unblock" })).toMatchObject({ changed: true, user: { state: "active" } });
    expect(await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "unblock" })).toMatchObject({ noop: false, changed: false });
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: f.admin.userId, action: "block" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - The API initiating user cannot be blocked by the API" },
    });
    await f.deps.prisma.user.update({ where: { id: u.userId }, data: { state: "ldap_blocked" } });
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "unblock" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - LDAP blocked users cannot be unblocked by the API" },
    });
    expect((await failure(f.c.ChangeUserState({ actor: u, id: u.userId, action: "block" }))).status).toBe(403);
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: 999999, action: "block" }))).toEqual({
      status: 404,
      body: { message: "404 User Not Found" },
    });
  });

  it("deactivates only dormant users (90 days without activity, or 7 days old and never active) and activates them again", async () => {
    const u = await f.user();
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "deactivate" }))).toEqual({
      status: 403,
      body: { message: "The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated" },
    });
    await f.deps.prisma.user.update({ where: { id: u.userId }, data: { createdAt: new Date(Date.now() - 8 * DAY) } });
    expect(await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "deactivate" })).toMatchObject({ changed: true, user: { state: "deactivated" } });
    expect(await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "deactivate" })).toMatchObject({ noop: true });
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "unblock" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - Deactivated users cannot be unblocked by the API" },
    });
    expect(await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "activate" })).toMatchObject({ changed: true, user: { state: "active" } });
    await f.deps.prisma.user.update({ where: { id: u.userId }, data: { lastActivityOn: new Date(Date.now() - 30 * DAY) } });
    expect((await failure(f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "deactivate" }))).status).toBe(403);
    await f.deps.prisma.user.update({ where: { id: u.userId }, data: { lastActivityOn: new Date(Date.now() - 91 * DAY) } });
    expect(await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "deactivate" })).toMatchObject({ changed: true });
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "ban" }))).toEqual({
      status: 403,
      body: { message: "You cannot ban deactivated users." },
    });
  });

  it("bans active users only and unbans banned ones", async () => {
    const u = await f.user();
    expect(await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "ban" })).toMatchObject({ changed: true, user: { state: "banned" } });
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "ban" }))).toEqual({
      status: 403,
      body: { message: "You cannot ban banned users." },
    });
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "deactivate" }))).toEqual({
      status: 403,
      body: { message: "Error occurred. A blocked user cannot be deactivated" },
    });
    expect(await f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "unban" })).toMatchObject({ changed: true, user: { state: "active" } });
    expect(await failure(f.c.ChangeUserState({ actor: f.admin, id: u.userId, action: "unban" }))).toEqual({
      status: 403,
      body: { message: "You cannot unban active users." },
    });
  });
});
