import { Subjects, type EmojiEvent } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { issueRow, noteRow, onIssue } from "./fixtures.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_award_event");
});
afterAll(() => t?.close());

const eventsOf = async (awardId: number) =>
  (await t.svc.deps.prisma.outboxEvent.findMany({ where: { subject: Subjects.emoji }, orderBy: { id: "asc" } }))
    .map((e) => e.payload as unknown as EmojiEvent)
    .filter((p) => p.object_attributes.id === awardId);

describe("emoji webhook events", () => {
  it("enqueues award and revoke with GitLab's emoji payload (less user and project) in the award's transaction", async () => {
    const project = await t.project();
    const label = await t.svc.deps.prisma.label.create({ data: { projectId: project.id, title: "bug", color: "#ff0000" } });
    const issue = await issueRow(t, project.id);
    await t.svc.deps.prisma.issueLabel.create({ data: { issueId: issue.id, labelId: label.id } });
    const user = await t.user();
    const award = await t.client.CreateAwardEmoji({ actor: user, awardable: onIssue(issue), name: "thumbsup" });
    const [awarded] = await eventsOf(Number(award.id));
    expect(awarded).toMatchObject({
      event_id: expect.any(String),
      event_name: "emoji",
      object_kind: "emoji",
      event_type: "award",
      user_id: user.userId,
      project_id: project.id,
      object_attributes: {
        user_id: user.userId,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/),
        id: award.id,
        name: "thumbsup",
        awardable_type: "Issue",
        awardable_id: issue.id,
        awarded_on_url: `/${project.path}/-/issues/${issue.iid}`,
      },
      issue: {
        id: issue.id,
        iid: issue.iid,
        title: "an issue",
        state: "opened",
        state_id: 1,
        url: `/${project.path}/-/issues/${issue.iid}`,
        labels: [{ id: label.id, title: "bug", color: "#ff0000", type: "ProjectLabel", project_id: project.id, group_id: null }],
        assignee_ids: [],
      },
    });
    expect(awarded).not.toHaveProperty("note");

    // A refused award enqueues nothing.
    await failure(t.client.CreateAwardEmoji({ actor: user, awardable: onIssue(issue), name: "thumbsup" }));
    expect(await eventsOf(Number(award.id))).toHaveLength(1);

    await t.client.DeleteAwardEmoji({ actor: t.admin, awardable: onIssue(issue), awardId: award.id });
    const [, revoked] = await eventsOf(Number(award.id));
    // GitLab's DestroyService runs as the award's user, whoever removed it.
    expect(revoked).toMatchObject({ event_type: "revoke", user_id: user.userId, object_attributes: { id: award.id, name: "thumbsup" } });
  });

  it("carries the note and its issue for an award on a note", async () => {
    const project = await t.project();
    const issue = await issueRow(t, project.id);
    const note = await noteRow(t, issue);
    const award = await t.client.CreateAwardEmoji({ actor: t.admin, awardable: onIssue(issue, note.id), name: "rocket" });
    const [event] = await eventsOf(Number(award.id));
    const noteUrl = `/${project.path}/-/issues/${issue.iid}#note_${note.id}`;
    expect(event).toMatchObject({
      object_attributes: { awardable_type: "Note", awardable_id: note.id, awarded_on_url: noteUrl },
      note: { id: note.id, note: "a note", description: "a note", noteable_type: "Issue", noteable_id: issue.id, system: false, url: noteUrl },
      issue: { id: issue.id, iid: issue.iid },
    });
  });

  it("carries the project snippet (Snippet#hook_attrs) and the snippet note's anchor for awards on snippets", async () => {
    const project = await t.project();
    const snippet = await t.client.CreateSnippet({
      actor: t.admin,
      project: String(project.id),
      title: "snip",
      visibility: "public",
      fileName: "a.rb",
      content: "1",
    });
    const snippetRef = { type: "Snippet", project: String(project.id), id: Number(snippet.id) };
    const award = await t.client.CreateAwardEmoji({ actor: t.admin, awardable: snippetRef, name: "tada" });
    const [onSnippet] = await eventsOf(Number(award.id));
    expect(onSnippet).toMatchObject({
      object_attributes: { awardable_type: "Snippet", awardable_id: Number(snippet.id), awarded_on_url: `/${project.path}/-/snippets/${snippet.id}` },
      snippet: {
        id: Number(snippet.id),
        title: "snip",
        type: "ProjectSnippet",
        visibility_level: 20,
        file_name: "a.rb",
        url: `/${project.path}/-/snippets/${snippet.id}`,
      },
    });
    expect(onSnippet).not.toHaveProperty("issue");
    const note = await t.client.CreateNote({ actor: t.admin, noteable: snippetRef, body: "n" });
    const onNote = await t.client.CreateAwardEmoji({ actor: t.admin, awardable: { ...snippetRef, noteId: Number(note.id) }, name: "rocket" });
    const [noteEvent] = await eventsOf(Number(onNote.id));
    expect(noteEvent).toMatchObject({
      object_attributes: { awardable_type: "Note", awarded_on_url: `/${project.path}/-/snippets/${snippet.id}#note_${note.id}` },
      note: { id: Number(note.id), noteable_type: "Snippet", url: `/${project.path}/-/snippets/${snippet.id}#note_${note.id}` },
      snippet: { id: Number(snippet.id) },
    });
  });
});
