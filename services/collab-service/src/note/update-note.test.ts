import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { noteFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_note_update");
});
afterAll(() => t?.close());

const forbidden = { status: 403, body: { message: "403 Forbidden" } };

describe("UpdateNote", () => {
  it("lets the author, Maintainers and administrators edit, recording who and when; others get 403", async () => {
    const f = await noteFixture(t);
    const note = await f.create(f.guest, "v1");
    const update = (actor: typeof f.guest, body?: string, confidential?: boolean) =>
      t.client.UpdateNote({ actor, noteable: f.noteable, noteId: note.id, body, confidential });
    expect((await update(f.guest, "v2")).body).toBe("v2");
    const row = await t.svc.deps.prisma.note.findUniqueOrThrow({ where: { id: Number(note.id) } });
    expect(row.updatedById).toBe(f.guest.userId);
    expect(row.lastEditedAt).not.toBeNull();
    expect((await update(f.maintainer, "v3")).body).toBe("v3");
    expect((await update(t.admin, "v4")).body).toBe("v4");
    expect(await failure(update(f.reporter, "x"))).toEqual(forbidden);
    expect(await failure(update(f.outsider, "x"))).toEqual(forbidden);
    expect(await failure(update(t.anonymous, "x"))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    // Nothing to change: the note as it is, untouched.
    const same = await update(f.guest);
    expect(same).toMatchObject({ body: "v4", updatedAt: (await t.client.GetNote({ actor: t.admin, noteable: f.noteable, noteId: note.id })).updatedAt });
  });

  it("validates the body, refuses a confidentiality change, system notes and unknown notes", async () => {
    const f = await noteFixture(t);
    const note = await f.create(f.reporter, "v1");
    const update = (body?: string, confidential?: boolean, noteId: string | number = note.id) =>
      t.client.UpdateNote({ actor: f.reporter, noteable: f.noteable, noteId, body, confidential });
    expect(await failure(update(" "))).toEqual({ status: 400, body: { message: '400 Bad request - Failed to save note {:note=>["can\'t be blank"]}' } });
    expect(await failure(update("x".repeat(1_000_001)))).toEqual({
      status: 400,
      body: { message: '400 Bad request - Failed to save note {:note=>["is too long (maximum is 1000000 characters)"]}' },
    });
    expect(await failure(update("v2", true))).toEqual({
      status: 400,
      body: { message: '400 Bad request - Failed to save note {:confidential=>["can not be changed for existing notes"]}' },
    });
    expect((await update("v2", false)).body).toBe("v2");
    const system = await t.svc.deps.prisma.note.create({
      data: {
        noteableType: "Issue",
        noteableId: f.issue.id,
        projectId: f.project.id,
        authorId: f.reporter.userId,
        body: "changed",
        system: true,
        discussionId: "c".repeat(40),
      },
    });
    expect(await failure(t.client.UpdateNote({ actor: t.admin, noteable: f.noteable, noteId: system.id, body: "x" }))).toEqual(forbidden);
    expect(await failure(update("x", undefined, 999999))).toEqual({ status: 404, body: { message: "404 Note Not Found" } });
  });

  it("on a locked discussion lets members edit but not a non-member author", async () => {
    const f = await noteFixture(t);
    const mine = await f.create(f.outsider, "before the lock");
    const guests = await f.create(f.guest, "guest's");
    await t.svc.deps.prisma.issue.update({ where: { id: f.issue.id }, data: { discussionLocked: true } });
    expect(await failure(t.client.UpdateNote({ actor: f.outsider, noteable: f.noteable, noteId: mine.id, body: "x" }))).toEqual(forbidden);
    expect((await t.client.UpdateNote({ actor: f.guest, noteable: f.noteable, noteId: guests.id, body: "y" })).body).toBe("y");
  });
});
