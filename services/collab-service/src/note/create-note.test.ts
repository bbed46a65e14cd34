import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { noteFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_note_create");
});
afterAll(() => t?.close());

const forbidden = { status: 403, body: { message: "403 Forbidden" } };

describe("CreateNote", () => {
  it("lets anyone signed in who reads the issue comment (a public project's outsiders too); not anonymous callers", async () => {
    const f = await noteFixture(t);
    const note = await f.create(f.outsider, "first!");
    expect(note).toMatchObject({
      body: "first!",
      authorId: f.outsider.userId,
      system: false,
      internal: false,
      type: "",
      noteableType: "Issue",
      noteableIid: 1,
    });
    expect(note.discussionId).toMatch(/^[0-9a-f]{40}$/);
    expect((await f.create(f.guest, "again")).discussionId).not.toBe(note.discussionId);
    expect(await failure(f.create(t.anonymous, "x"))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    const priv = await noteFixture(t, { visibility: "private" });
    expect(await failure(priv.create(priv.outsider, "x"))).toEqual({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await priv.create(priv.guest, "member")).body).toBe("member");
    const conf = await noteFixture(t, { confidential: true });
    expect(await failure(conf.create(conf.guest, "x"))).toEqual({ status: 404, body: { message: "404 Issue Not Found" } });
  });

  it("keeps internal only for Reporter+ (ignored below), and refuses blank and over-long bodies writing nothing", async () => {
    const f = await noteFixture(t);
    expect((await f.create(f.reporter, "r", { internal: true })).internal).toBe(true);
    expect((await f.create(f.guest, "g", { internal: true })).internal).toBe(false);
    const blank = { status: 400, body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' } };
    expect(await failure(f.create(f.guest, ""))).toEqual(blank);
    expect(await failure(f.create(f.guest, " \n\t"))).toEqual(blank);
    expect((await f.create(f.guest, "x".repeat(1_000_000))).body).toHaveLength(1_000_000);
    // Characters, not UTF-16 units: a million emoji are a million characters.
    expect((await f.create(f.guest, "😀".repeat(1_000_000))).body).toHaveLength(2_000_000);
    expect(await failure(f.create(f.guest, "x".repeat(1_000_001)))).toEqual({
      status: 400,
      body: { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' },
    });
    expect(await t.svc.deps.prisma.note.count({ where: { noteableId: f.issue.id } })).toBe(4);
  });

  it("honours created_at for administrators and owners only (setting updated_at too); refuses an invalid one", async () => {
    const f = await noteFixture(t);
    const when = "2020-05-06T07:08:09.000Z";
    const admin = await f.create(t.admin, "old", { createdAt: when });
    expect(admin).toMatchObject({ createdAt: when, updatedAt: when });
    const owner = await t.user();
    await t.member("project", f.project.id, owner, 50);
    expect((await f.create(owner, "owner's", { createdAt: "2020-05-06T02:08:09-05:00" })).createdAt).toBe(when);
    const ignored = await f.create(f.maintainer, "now", { createdAt: when });
    expect(Date.now() - new Date(ignored.createdAt).getTime()).toBeLessThan(60_000);
    // A non-owner's created_at is dropped before it is read, so an invalid one is ignored too.
    expect((await f.create(f.maintainer, "now", { createdAt: "garbage" })).body).toBe("now");
    const invalid = { status: 400, body: { error: "created_at is invalid" } };
    expect(await failure(f.create(t.admin, "x", { createdAt: "garbage" }))).toEqual(invalid);
    expect(await failure(f.create(t.admin, "x", { createdAt: "1970-01-01T00:00:00Z" }))).toEqual(invalid);
    expect(await failure(f.create(t.admin, "x", { createdAt: "2021-02-30" }))).toEqual(invalid);
  });

  it("on a locked discussion takes comments from project members only", async () => {
    const f = await noteFixture(t, { locked: true });
    expect((await f.create(f.guest, "member")).body).toBe("member");
    expect(await failure(f.create(f.outsider, "x"))).toEqual(forbidden);
  });

  it("rate-limits per user by the real write time (back-dated notes count), across issues, 429 before the noteable is looked up", async () => {
    const previous = t.svc.deps.notesCreateLimit;
    // The handlers read the limit from deps on every call.
    t.svc.deps.notesCreateLimit = 2;
    try {
      const f = await noteFixture(t);
      // The administrator's notes of the earlier tests are out of the window.
      await t.svc.deps.prisma.note.updateMany({ where: { authorId: t.admin.userId }, data: { recordedAt: new Date(Date.now() - 61_000) } });
      const tooMany = { status: 429, body: { message: { error: "This endpoint has been requested too many times. Try again later." } } };
      await f.create(t.admin, "1", { createdAt: "2001-01-01T00:00:00Z" });
      await f.create(t.admin, "2");
      expect(await failure(f.create(t.admin, "3"))).toEqual(tooMany);
      expect(await failure(t.client.CreateNote({ actor: t.admin, noteable: { ...f.noteable, id: 404 }, body: "x" }))).toEqual(tooMany);
      // Another user is not affected; system notes do not count.
      expect((await f.create(f.guest, "mine")).body).toBe("mine");
      await t.svc.deps.prisma.note.updateMany({ where: { authorId: t.admin.userId }, data: { recordedAt: new Date(Date.now() - 61_000) } });
      expect((await f.create(t.admin, "later")).body).toBe("later");
      t.svc.deps.notesCreateLimit = 0;
      for (let i = 0; i < 3; i++) await f.create(f.guest, `unlimited ${i}`);
    } finally {
      t.svc.deps.notesCreateLimit = previous;
    }
  });
});
