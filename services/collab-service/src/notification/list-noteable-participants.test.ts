import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mentionedUsernames } from "./mentions.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_noteable_participants");
});
afterAll(() => t?.close());

const SYSTEM = { userId: 0, isAdmin: false, system: "hook-service" };

describe("mentionedUsernames", () => {
  it("finds @usernames outside code, each once, without e-mail addresses or a sentence's dot", () => {
    expect(mentionedUsernames("Hi @Alice and @bob.\n`@code` ```\n@block\n``` mail a@b.c, @alice again, @carol-x")).toEqual(["alice", "bob", "carol-x"]);
  });
});

describe("ListNoteableParticipants", () => {
  it("lists the author, assignees, commenters and everyone @mentioned, and who the note or description mentions", async () => {
    const project = await t.project();
    const [author, assignee, commenter, named, inNote] = await Promise.all([t.user(), t.user(), t.user(), t.user(), t.user()]);
    const username = async (u: { userId: number }) => (await t.identity.GetUser({ actor: t.admin, id: u.userId })).username;
    const issue = await t.client.CreateIssue({
      actor: { ...author },
      project: String(project.id),
      title: "Broken",
      description: `cc @${await username(named)} and @nobody-here`,
      assigneeIds: [],
    });
    await t.svc.deps.prisma.issueAssignee.create({ data: { issueId: Number(issue.id), userId: assignee.userId } });
    const base = { noteableType: "Issue", noteableId: Number(issue.id), projectId: project.id, discussionId: "b".repeat(40) };
    const note = await t.svc.deps.prisma.note.create({ data: { ...base, authorId: commenter.userId, body: `@${await username(inNote)} look` } });
    await t.svc.deps.prisma.note.create({ data: { ...base, authorId: assignee.userId, body: "system", system: true } });

    const req = { actor: SYSTEM, projectId: project.id, noteableType: "Issue", noteableId: Number(issue.id) };
    const all = await t.client.ListNoteableParticipants(req);
    expect(all.userIds.map(Number)).toEqual([author.userId, assignee.userId, commenter.userId, named.userId, inNote.userId]);
    expect(all.mentionedUserIds.map(Number)).toEqual([named.userId]);
    const ofNote = await t.client.ListNoteableParticipants({ ...req, noteId: note.id });
    expect(ofNote.mentionedUserIds.map(Number)).toEqual([inNote.userId]);

    expect((await failure(t.client.ListNoteableParticipants({ ...req, actor: author }))).status).toBe(403);
    expect((await failure(t.client.ListNoteableParticipants({ ...req, projectId: project.id + 1000 }))).status).toBe(404);
  });
});
