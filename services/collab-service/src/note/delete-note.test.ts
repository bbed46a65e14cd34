import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { noteFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_note_delete");
});
afterAll(() => t?.close());

const forbidden = { status: 403, body: { message: "403 Forbidden" } };

describe("DeleteNote", () => {
  it("lets the author, Maintainers and administrators delete a note with its award emoji; others get 403", async () => {
    const f = await noteFixture(t);
    const db = t.svc.deps.prisma;
    const [a, b, c] = [await f.create(f.guest, "a"), await f.create(f.guest, "b"), await f.create(f.guest, "c")];
    await db.awardEmoji.create({ data: { name: "thumbsup", userId: f.reporter.userId, awardableType: "Note", awardableId: Number(a.id) } });
    await db.awardEmoji.create({ data: { name: "thumbsup", userId: f.reporter.userId, awardableType: "Note", awardableId: Number(b.id) } });
    const del = (actor: typeof f.guest, noteId: string | number) => t.client.DeleteNote({ actor, noteable: f.noteable, noteId });
    expect(await failure(del(f.reporter, a.id))).toEqual(forbidden);
    expect(await failure(del(f.outsider, a.id))).toEqual(forbidden);
    expect(await failure(del(t.anonymous, a.id))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    await del(f.guest, a.id);
    await del(f.maintainer, b.id);
    await del(t.admin, c.id);
    expect(await db.note.count({ where: { noteableId: f.issue.id } })).toBe(0);
    expect(await db.awardEmoji.count({ where: { awardableType: "Note" } })).toBe(0);
    expect(await failure(del(t.admin, a.id))).toEqual({ status: 404, body: { message: "404 Note Not Found" } });
  });

  it("refuses system notes and hides internal notes below Reporter", async () => {
    const f = await noteFixture(t);
    const system = await t.svc.deps.prisma.note.create({
      data: {
        noteableType: "Issue",
        noteableId: f.issue.id,
        projectId: f.project.id,
        authorId: t.admin.userId,
        body: "closed",
        system: true,
        discussionId: "d".repeat(40),
      },
    });
    expect(await failure(t.client.DeleteNote({ actor: t.admin, noteable: f.noteable, noteId: system.id }))).toEqual(forbidden);
    const internal = await f.create(f.reporter, "psst", { internal: true });
    expect(await failure(t.client.DeleteNote({ actor: f.guest, noteable: f.noteable, noteId: internal.id }))).toEqual({
      status: 404,
      body: { message: "404 Note Not Found" },
    });
  });
});
