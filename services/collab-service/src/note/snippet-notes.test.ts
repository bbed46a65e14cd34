import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_snippet_notes");
});
afterAll(() => t?.close());

describe("notes on project snippets", () => {
  it("follow the snippet's visibility: members comment on a private snippet, outsiders get 404 Snippet Not Found", async () => {
    const project = await t.project({ visibility: "public" });
    const [guest, outsider] = await Promise.all([t.user(), t.user()]);
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    const snippet = await t.client.CreateSnippet({
      actor: t.admin,
      project: String(project.id),
      title: "s",
      visibility: "private",
      fileName: "a",
      content: "a",
    });
    const noteable = { type: "Snippet", project: String(project.id), id: Number(snippet.id) };
    const note = await t.client.CreateNote({ actor: guest, noteable, body: "looks good" });
    expect(note).toMatchObject({ body: "looks good", noteableType: "Snippet", noteableId: snippet.id, projectId: project.id });
    expect(Number(note.noteableIid)).toBe(0);
    const listed = await t.client.ListNotes({ actor: t.admin, noteable });
    expect(listed.notes.map((n) => n.body)).toEqual(["looks good"]);
    const hidden = { status: 404, body: { message: "404 Snippet Not Found" } };
    expect(await failure(t.client.ListNotes({ actor: outsider, noteable }))).toEqual(hidden);
    expect(await failure(t.client.CreateNote({ actor: outsider, noteable, body: "x" }))).toEqual(hidden);
    // Another project's snippet is not found through this project.
    const other = await t.project();
    expect(await failure(t.client.ListNotes({ actor: t.admin, noteable: { ...noteable, project: String(other.id) } }))).toEqual(hidden);
    await t.client.DeleteNote({ actor: guest, noteable, noteId: note.id });
    expect((await t.client.ListNotes({ actor: t.admin, noteable })).notes).toEqual([]);
  });
});
