import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_get");
});
afterAll(() => t?.close());

describe("GetIssue", () => {
  it("counts user notes and thumbs votes; hides confidential issues from Guests and outsiders", async () => {
    const project = await t.project();
    const [guest, author] = [await t.user(), await t.user()];
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    await t.member("project", project.id, author, AccessLevel.GUEST);
    const issue = await t.client.CreateIssue({ actor: author, project: String(project.id), title: "s", confidential: true });
    const prisma = t.svc.deps.prisma;
    const note = { noteableType: "Issue", noteableId: Number(issue.id), projectId: project.id, authorId: author.userId, discussionId: "d".repeat(40) };
    await prisma.note.createMany({
      data: [
        { ...note, body: "a" },
        { ...note, body: "b" },
        { ...note, body: "changed", system: true },
      ],
    });
    await prisma.awardEmoji.createMany({
      data: [
        { name: "thumbsup", userId: author.userId, awardableType: "Issue", awardableId: Number(issue.id) },
        { name: "thumbsup", userId: guest.userId, awardableType: "Issue", awardableId: Number(issue.id) },
        { name: "thumbsdown", userId: t.admin.userId, awardableType: "Issue", awardableId: Number(issue.id) },
        { name: "tada", userId: t.admin.userId, awardableType: "Issue", awardableId: Number(issue.id) },
      ],
    });
    const got = await t.client.GetIssue({ actor: author, project: String(project.id), issueIid: issue.iid });
    expect(got).toMatchObject({ title: "s", userNotesCount: 2, upvotes: 2, downvotes: 1 });
    for (const actor of [guest, t.anonymous]) {
      expect(await failure(t.client.GetIssue({ actor, project: String(project.id), issueIid: issue.iid }))).toEqual({
        status: 404,
        body: { message: "404 Issue Not Found" },
      });
    }
  });
});
