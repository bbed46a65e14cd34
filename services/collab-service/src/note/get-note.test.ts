import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { noteFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_note_get");
});
afterAll(() => t?.close());

describe("GetNote", () => {
  it("answers a note to whoever reads the issue; internal ones to Reporter+ only; anonymous 401", async () => {
    const f = await noteFixture(t);
    const plain = await f.create(f.outsider, "hello");
    const internal = await f.create(f.reporter, "psst", { internal: true });
    const get = (actor: typeof f.guest, noteId: string | number) => t.client.GetNote({ actor, noteable: f.noteable, noteId });
    expect(await get(f.guest, plain.id)).toMatchObject({ id: plain.id, body: "hello", authorId: f.outsider.userId, type: "", internal: false });
    expect((await get(f.reporter, internal.id)).internal).toBe(true);
    const noteNotFound = { status: 404, body: { message: "404 Note Not Found" } };
    expect(await failure(get(f.guest, internal.id))).toEqual(noteNotFound);
    expect(await failure(get(f.outsider, internal.id))).toEqual(noteNotFound);
    expect(await failure(get(t.admin, 999999))).toEqual(noteNotFound);
    expect(await failure(get(t.anonymous, plain.id))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    // A note of another issue is not this issue's.
    const other = await noteFixture(t);
    expect(await failure(t.client.GetNote({ actor: t.admin, noteable: other.noteable, noteId: plain.id }))).toEqual(noteNotFound);
  });

  it("hides the notes of a confidential issue with the issue; its author still reads them", async () => {
    const f = await noteFixture(t, { confidential: true });
    const note = await f.create(t.admin, "x");
    expect(await failure(t.client.GetNote({ actor: f.guest, noteable: f.noteable, noteId: note.id }))).toEqual({
      status: 404,
      body: { message: "404 Issue Not Found" },
    });
    expect((await t.client.GetNote({ actor: f.reporter, noteable: f.noteable, noteId: note.id })).body).toBe("x");
  });
});
