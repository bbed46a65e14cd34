import { type EmojiEvent, type NoteEvent, Subjects } from "@quarry/bus";
import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_notes");
});
afterAll(() => t?.close());

/** A project with a guest, a reporter and an outsider, and one merge request row by the administrator. */
async function mergeRequestFixture(options: { visibility?: string; locked?: boolean } = {}) {
  const project = await t.project({ visibility: options.visibility ?? "public" });
  const [guest, reporter, outsider] = [await t.user(), await t.user(), await t.user()];
  await t.member("project", project.id, guest, AccessLevel.GUEST);
  await t.member("project", project.id, reporter, AccessLevel.REPORTER);
  const mr = await t.svc.deps.prisma.mergeRequest.create({
    data: {
      projectId: project.id,
      sourceProjectId: project.id,
      iid: 1,
      title: "A change",
      sourceBranch: "feature",
      targetBranch: "main",
      authorId: t.admin.userId,
      discussionLocked: options.locked ?? null,
    },
  });
  const noteable = { type: "MergeRequest", project: String(project.id), id: 1 };
  const create = (actor: TestActor, body: string, internal = false) => t.client.CreateNote({ actor, noteable, body, internal, createdAt: "" });
  return { project, mr, noteable, guest, reporter, outsider, create };
}

const payloads = async <T>(subject: string) =>
  (await t.svc.deps.prisma.outboxEvent.findMany({ where: { subject }, orderBy: { id: "asc" } })).map((e) => e.payload as unknown as T);

describe("notes on merge requests", () => {
  it("creates, lists, reads, edits and deletes them as issue notes, with the merge request in the note event", async () => {
    const f = await mergeRequestFixture();
    const note = await f.create(f.outsider, "looks good");
    expect(note).toMatchObject({ noteableType: "MergeRequest", noteableId: f.mr.id, noteableIid: 1, projectId: f.project.id, body: "looks good" });
    const internal = await f.create(f.reporter, "between us", true);
    expect(internal.internal).toBe(true);
    // Internal notes are for Reporter+.
    const seen = async (actor: TestActor) => (await t.client.ListNotes({ actor, noteable: f.noteable, sort: "asc" })).notes.map((n) => n.body);
    expect(await seen(f.reporter)).toEqual(["looks good", "between us"]);
    expect(await seen(f.guest)).toEqual(["looks good"]);
    expect(await failure(t.client.GetNote({ actor: f.guest, noteable: f.noteable, noteId: internal.id }))).toEqual({
      status: 404,
      body: { message: "404 Note Not Found" },
    });
    expect((await t.client.GetNote({ actor: f.guest, noteable: f.noteable, noteId: note.id })).body).toBe("looks good");
    expect((await t.client.UpdateNote({ actor: f.outsider, noteable: f.noteable, noteId: note.id, body: "looks great" })).body).toBe("looks great");
    expect((await failure(t.client.UpdateNote({ actor: f.guest, noteable: f.noteable, noteId: note.id, body: "no" }))).status).toBe(403);

    const [created, updated] = (await payloads<NoteEvent>(Subjects.note)).filter((e) => e.object_attributes.id === Number(note.id));
    expect(created).toMatchObject({
      event_type: "note",
      project_id: f.project.id,
      object_attributes: { noteable_type: "MergeRequest", url: `/${f.project.path}/-/merge_requests/1#note_${note.id}`, action: "create" },
      merge_request: {
        id: f.mr.id,
        iid: 1,
        title: "A change",
        source_branch: "feature",
        target_branch: "main",
        state: "opened",
        url: `/${f.project.path}/-/merge_requests/1`,
        detailed_merge_status: "unchecked",
      },
    });
    expect(created!.issue).toBeUndefined();
    expect(updated!.object_attributes.action).toBe("update");
    const confidential = (await payloads<NoteEvent>(Subjects.note)).find((e) => e.object_attributes.id === Number(internal.id));
    expect(confidential!.event_type).toBe("confidential_note");

    await t.client.DeleteNote({ actor: f.outsider, noteable: f.noteable, noteId: note.id });
    expect(await seen(f.reporter)).toEqual(["between us"]);
  });

  it("answers 404 Not found for an unknown or unreadable merge request, and keeps a locked discussion to members", async () => {
    const f = await mergeRequestFixture({ locked: true });
    expect(await failure(t.client.ListNotes({ actor: f.guest, noteable: { ...f.noteable, id: 2 } }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    expect((await f.create(f.guest, "member")).body).toBe("member");
    expect((await failure(f.create(f.outsider, "outsider"))).status).toBe(403);

    const secret = await mergeRequestFixture({ visibility: "private" });
    // Guests of a private project do not see its merge requests: the merge request is not found.
    expect(await failure(secret.create(secret.guest, "hi"))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect((await secret.create(secret.reporter, "hi")).body).toBe("hi");
    expect(await failure(secret.create(secret.outsider, "hi"))).toEqual({ status: 404, body: { message: "404 Project Not Found" } });
  });
});

describe("award emoji on merge requests", () => {
  it("awards a merge request and its notes, with the merge request in the emoji event", async () => {
    const f = await mergeRequestFixture();
    const awardable = { type: "MergeRequest", project: String(f.project.id), id: 1, noteId: 0 };
    const award = await t.client.CreateAwardEmoji({ actor: f.guest, awardable, name: "thumbsup" });
    expect(award).toMatchObject({ name: "thumbsup", awardableType: "MergeRequest", awardableId: f.mr.id });
    const listed = await t.client.ListAwardEmoji({ actor: f.outsider, awardable });
    expect(listed.awardEmoji.map((a) => a.name)).toEqual(["thumbsup"]);
    const note = await f.create(f.guest, "nice");
    const onNote = await t.client.CreateAwardEmoji({ actor: f.reporter, awardable: { ...awardable, noteId: note.id }, name: "tada" });
    expect(onNote).toMatchObject({ awardableType: "Note", awardableId: note.id });
    const events = await payloads<EmojiEvent>(Subjects.emoji);
    expect(events.find((e) => e.object_attributes.id === Number(award.id))).toMatchObject({
      object_attributes: { awardable_type: "MergeRequest", awarded_on_url: `/${f.project.path}/-/merge_requests/1` },
      merge_request: { iid: 1, title: "A change" },
    });
    expect(events.find((e) => e.object_attributes.id === Number(onNote.id))).toMatchObject({
      object_attributes: { awarded_on_url: `/${f.project.path}/-/merge_requests/1#note_${note.id}` },
      note: { id: Number(note.id) },
      merge_request: { iid: 1 },
    });
    expect(await failure(t.client.ListAwardEmoji({ actor: f.guest, awardable: { ...awardable, id: 9 } }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    // The merge request's upvotes count it.
    const list = await t.client.ListMergeRequests({ actor: t.admin, project: String(f.project.id) });
    expect(Number(list.mergeRequests[0]!.upvotes)).toBe(1);
  });
});

describe("resource events of merge requests", () => {
  it("lists a merge request's label, state and milestone events, and 404s for another's", async () => {
    const f = await mergeRequestFixture();
    const label = await t.svc.deps.prisma.label.create({ data: { projectId: f.project.id, title: "bug", color: "#ff0000" } });
    const db = t.svc.deps.prisma;
    const added = await db.resourceLabelEvent.create({ data: { mergeRequestId: f.mr.id, labelId: label.id, action: "add", userId: t.admin.userId } });
    const merged = await db.resourceStateEvent.create({ data: { mergeRequestId: f.mr.id, state: "merged", userId: t.admin.userId } });
    const onIssue = await db.resourceStateEvent.create({ data: { issueId: f.mr.id, state: "closed", userId: t.admin.userId } });
    const ref = { actor: f.guest, project: String(f.project.id), issueIid: 1, eventableType: "MergeRequest" };
    const labels = await t.client.ListIssueResourceEvents({ ...ref, kind: "label" });
    expect(labels.events).toEqual([
      expect.objectContaining({ id: added.id, action: "add", issueId: 0, mergeRequestId: f.mr.id, label: expect.objectContaining({ name: "bug" }) }),
    ]);
    const states = await t.client.ListIssueResourceEvents({ ...ref, kind: "state" });
    expect(states.events.map((e) => [Number(e.id), e.state])).toEqual([[merged.id, "merged"]]);
    expect((await t.client.ListIssueResourceEvents({ ...ref, kind: "milestone" })).events).toEqual([]);
    expect(await failure(t.client.ListIssueResourceEvents({ ...ref, kind: "state", eventId: onIssue.id }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    expect(await failure(t.client.ListIssueResourceEvents({ ...ref, kind: "state", issueIid: 5 }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
  });
});
