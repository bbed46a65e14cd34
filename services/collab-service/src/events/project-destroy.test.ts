import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";
import { forgetProject } from "./project-destroy.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_forget");
});
afterAll(() => t?.close());

describe("project deletion", () => {
  it("removes the project's issues (with notes, emoji and events), labels, milestones, priorities and subscriptions when identity-service deletes it", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const kept = await t.project({ namespaceId: group.id });
    const user = await t.user();
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(group.id), name: "shared", color: "#fff" });
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: "own", color: "#fff" });
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(kept.id), name: "other", color: "#fff" });
    await t.client.UpdateLabel({ actor: t.admin, parent: projectParent(project.id), label: "own", updatePriority: true, priority: 1 });
    await t.client.SubscribeLabel({ actor: user, parent: projectParent(project.id), label: "shared" });
    await t.client.CreateMilestone({ actor: t.admin, parent: projectParent(project.id), title: "m" });
    const db = t.svc.deps.prisma;
    const issue = await db.issue.create({
      data: { projectId: project.id, iid: 1, title: "i", authorId: user.userId, assignees: { create: [{ userId: user.userId }] } },
    });
    await db.issueIid.create({ data: { projectId: project.id, lastIid: 1 } });
    const note = await db.note.create({
      data: { noteableType: "Issue", noteableId: issue.id, projectId: project.id, authorId: user.userId, body: "b", discussionId: "d".repeat(40) },
    });
    await db.awardEmoji.createMany({
      data: [
        { name: "thumbsup", userId: user.userId, awardableType: "Issue", awardableId: issue.id },
        { name: "thumbsup", userId: user.userId, awardableType: "Note", awardableId: note.id },
      ],
    });
    await db.resourceStateEvent.create({ data: { issueId: issue.id, state: "closed", userId: user.userId } });
    await db.resourceLabelEvent.create({ data: { issueId: issue.id, action: "add", userId: user.userId } });
    await db.resourceMilestoneEvent.create({ data: { issueId: issue.id, action: "add", state: "opened", userId: user.userId } });
    const snippet = await t.client.CreateSnippet({
      actor: t.admin,
      project: String(project.id),
      title: "s",
      visibility: "public",
      fileName: "a",
      content: "a",
    });
    const keptIssue = await db.issue.create({ data: { projectId: kept.id, iid: 1, title: "k", authorId: user.userId } });
    await t.identity.DeleteProject({ actor: t.admin, idOrPath: String(project.id) });
    await waitFor(async () => (await db.label.count({ where: { projectId: project.id } })) === 0, { message: "the project's labels to go" });
    expect(await db.milestone.count({ where: { projectId: project.id } })).toBe(0);
    expect(await db.labelPriority.count({ where: { projectId: project.id } })).toBe(0);
    expect(await db.labelSubscription.count({ where: { projectId: project.id } })).toBe(0);
    expect(await db.label.count({ where: { OR: [{ groupId: group.id }, { projectId: kept.id }] } })).toBe(2);
    expect(await db.issue.findMany({ select: { id: true } })).toEqual([{ id: keptIssue.id }]);
    expect(await db.snippet.count({ where: { id: Number(snippet.id) } })).toBe(0);
    expect(await db.issueAssignee.count()).toBe(0);
    expect(await db.issueIid.count()).toBe(0);
    expect(await db.note.count()).toBe(0);
    expect(await db.awardEmoji.count()).toBe(0);
    expect(await db.resourceStateEvent.count()).toBe(0);
    expect(await db.resourceLabelEvent.count()).toBe(0);
    expect(await db.resourceMilestoneEvent.count()).toBe(0);
    // A redelivery finds nothing left to do.
    await forgetProject(t.svc.deps, project.id);
  });
});
