import { Subjects, type NoteEvent } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import type { ResolvedParent } from "../label/parent.ts";
import { enqueueNoteEvent } from "./event.ts";
import { noteFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_note_event");
});
afterAll(() => t?.close());

const HOOK_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;

const eventsOf = async (noteId: number | string) =>
  (await t.svc.deps.prisma.outboxEvent.findMany({ where: { subject: Subjects.note }, orderBy: { id: "asc" } }))
    .map((e) => e.payload as unknown as NoteEvent)
    .filter((p) => p.object_attributes.id === Number(noteId));

describe("note webhook events", () => {
  it("enqueues create and update with GitLab's note payload (less user, project and repository) in the note's transaction", async () => {
    const f = await noteFixture(t);
    const note = await f.create(f.guest, "first");
    const [created] = await eventsOf(note.id);
    const url = `/${f.project.path}/-/issues/${f.issue.iid}#note_${note.id}`;
    expect(created).toEqual({
      event_id: expect.any(String),
      event_name: "note",
      object_kind: "note",
      event_type: "note",
      user_id: f.guest.userId,
      project_id: f.project.id,
      object_attributes: expect.objectContaining({
        id: Number(note.id),
        note: "first",
        description: "first",
        noteable_type: "Issue",
        noteable_id: f.issue.id,
        author_id: f.guest.userId,
        project_id: f.project.id,
        system: false,
        created_at: expect.stringMatching(HOOK_TIME),
        url,
        action: "create",
      }),
      issue: expect.objectContaining({
        id: f.issue.id,
        iid: f.issue.iid,
        title: "an issue",
        confidential: false,
        url: `/${f.project.path}/-/issues/${f.issue.iid}`,
      }),
    });

    // An edit by a maintainer is still the author's event; an unchanged body and refusals enqueue nothing.
    await t.client.UpdateNote({ actor: f.maintainer, noteable: f.noteable, noteId: note.id, body: "second" });
    await t.client.UpdateNote({ actor: f.maintainer, noteable: f.noteable, noteId: note.id, body: "second" });
    await failure(t.client.UpdateNote({ actor: f.reporter, noteable: f.noteable, noteId: note.id, body: "third" }));
    const events = await eventsOf(note.id);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      event_type: "note",
      user_id: f.guest.userId,
      object_attributes: { note: "second", action: "update", updated_by_id: f.maintainer.userId, url },
    });
  });

  it("is confidential for internal notes and for any note on a confidential issue; system notes enqueue none", async () => {
    const f = await noteFixture(t);
    const internal = await f.create(f.reporter, "secret", { internal: true });
    expect((await eventsOf(internal.id))[0]).toMatchObject({ event_type: "confidential_note" });
    const plain = await f.create(f.reporter, "open");
    expect((await eventsOf(plain.id))[0]).toMatchObject({ event_type: "note" });

    const c = await noteFixture(t, { confidential: true });
    const onConfidential = await c.create(c.reporter, "hush");
    expect((await eventsOf(onConfidential.id))[0]).toMatchObject({ event_type: "confidential_note", issue: { confidential: true } });

    const before = await t.svc.deps.prisma.outboxEvent.count({ where: { subject: Subjects.note } });
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
    const parent = { id: f.project.id, fullPath: f.project.path } as ResolvedParent;
    const noteable = { parent, type: "Issue" as const, id: f.issue.id, iid: f.issue.iid, projectId: f.project.id, locked: false, confidential: false };
    expect(await t.svc.deps.prisma.$transaction((tx) => enqueueNoteEvent(t.svc.deps, tx, noteable, system, "create"))).toBeNull();
    expect(await t.svc.deps.prisma.outboxEvent.count({ where: { subject: Subjects.note } })).toBe(before);
  });

  it("carries the project snippet (Snippet#hook_attrs) for snippet notes", async () => {
    const project = await t.project();
    const snippet = await t.client.CreateSnippet({
      actor: t.admin,
      project: String(project.id),
      title: "s",
      visibility: "public",
      fileName: "a.rb",
      content: "a",
    });
    const noteable = { type: "Snippet", project: String(project.id), id: Number(snippet.id) };
    const note = await t.client.CreateNote({ actor: t.admin, noteable, body: "nice" });
    const [event] = await eventsOf(note.id);
    const url = `/${project.path}/-/snippets/${snippet.id}`;
    expect(event).toMatchObject({
      event_type: "note",
      project_id: project.id,
      object_attributes: { noteable_type: "Snippet", noteable_id: Number(snippet.id), url: `${url}#note_${note.id}`, action: "create" },
      snippet: { id: Number(snippet.id), title: "s", type: "ProjectSnippet", visibility_level: 20, file_name: "a.rb", url },
    });
    expect(event).not.toHaveProperty("issue");
  });
});
