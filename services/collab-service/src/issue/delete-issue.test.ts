import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_delete");
});
afterAll(() => t?.close());

describe("DeleteIssue", () => {
  it("is for Owners and admins; removes the issue's notes, award emoji and resource events with it", async () => {
    const project = await t.project();
    const [dev, owner] = [await t.user(), await t.user()];
    await t.member("project", project.id, dev, AccessLevel.DEVELOPER);
    await t.member("project", project.id, owner, AccessLevel.OWNER);
    const ref = { project: String(project.id) };
    const issue = await t.client.CreateIssue({ actor: dev, ...ref, title: "x", labels: ["l"] });
    const keep = await t.client.CreateIssue({ actor: dev, ...ref, title: "keep", labels: ["l"] });
    await t.client.UpdateIssue({ actor: dev, ...ref, issueIid: issue.iid, stateEvent: "close" });
    const prisma = t.svc.deps.prisma;
    const note = await prisma.note.create({
      data: { noteableType: "Issue", noteableId: Number(issue.id), projectId: project.id, authorId: dev.userId, body: "n", discussionId: "e".repeat(40) },
    });
    await prisma.awardEmoji.createMany({
      data: [
        { name: "thumbsup", userId: dev.userId, awardableType: "Issue", awardableId: Number(issue.id) },
        { name: "tada", userId: dev.userId, awardableType: "Note", awardableId: note.id },
        { name: "thumbsup", userId: dev.userId, awardableType: "Issue", awardableId: Number(keep.id) },
      ],
    });
    expect(await failure(t.client.DeleteIssue({ actor: dev, ...ref, issueIid: issue.iid }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    await t.client.DeleteIssue({ actor: owner, ...ref, issueIid: issue.iid });
    expect(await failure(t.client.GetIssue({ actor: owner, ...ref, issueIid: issue.iid }))).toEqual({ status: 404, body: { message: "404 Issue Not Found" } });
    expect(await prisma.note.count({ where: { noteableType: "Issue", noteableId: Number(issue.id) } })).toBe(0);
    expect(await prisma.awardEmoji.count()).toBe(1);
    expect(await prisma.resourceLabelEvent.count({ where: { issueId: Number(issue.id) } })).toBe(0);
    expect(await prisma.resourceStateEvent.count({ where: { issueId: Number(issue.id) } })).toBe(0);
    expect(await prisma.resourceLabelEvent.count({ where: { issueId: Number(keep.id) } })).toBe(1);
    // Numbers are not reused.
    expect(Number((await t.client.CreateIssue({ actor: dev, ...ref, title: "after" })).iid)).toBe(3);
  });
});
