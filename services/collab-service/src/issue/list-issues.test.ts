import { AccessLevel } from "@quarry/gitlab";
import type { ListIssuesRequest } from "@quarry/proto/types/collab/v1/ListIssuesRequest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_list");
});
afterAll(() => t?.close());

describe("ListIssues", () => {
  it("applies every filter of a project's list", async () => {
    const project = await t.project();
    const ref = { actor: t.admin, project: String(project.id) };
    const [alice, bob] = [await t.user(), await t.user()];
    await t.member("project", project.id, alice, AccessLevel.DEVELOPER);
    await t.member("project", project.id, bob, AccessLevel.DEVELOPER);
    const m = await t.client.CreateMilestone({ actor: t.admin, parent: { project: String(project.id) }, title: "v1", dueDate: "2099-01-01" });
    const i1 = await t.client.CreateIssue({ ...ref, title: "Crash on start", labels: ["bug", "p1"], milestoneId: m.id, assigneeIds: [alice.userId] });
    const i2 = await t.client.CreateIssue({
      actor: alice,
      project: String(project.id),
      title: "Docs",
      description: "explain crash",
      labels: ["docs"],
      dueDate: "2000-01-01",
    });
    const i3 = await t.client.CreateIssue({ ...ref, title: "Incident", issueType: "incident", confidential: true, assigneeIds: [alice.userId, bob.userId] });
    await t.client.UpdateIssue({ ...ref, issueIid: i2.iid, stateEvent: "close" });
    await t.svc.deps.prisma.awardEmoji.create({ data: { name: "thumbsup", userId: t.admin.userId, awardableType: "Issue", awardableId: Number(i3.id) } });

    const iids = async (q: Partial<ListIssuesRequest>, actor: TestActor = t.admin) =>
      (await t.client.ListIssues({ ...ref, actor, ...q })).issues.map((i) => Number(i.iid));
    expect(await iids({})).toEqual([3, 2, 1]);
    expect(await iids({ sort: "asc" })).toEqual([1, 2, 3]);
    expect(await iids({ state: "opened" })).toEqual([3, 1]);
    expect(await iids({ state: "closed" })).toEqual([2]);
    expect(await iids({ labels: ["bug", "p1"] })).toEqual([1]);
    expect(await iids({ labels: ["bug", "docs"] })).toEqual([]);
    expect(await iids({ labels: ["None"] })).toEqual([3]);
    expect(await iids({ labels: ["Any"] })).toEqual([2, 1]);
    expect(await iids({ notLabels: ["bug"] })).toEqual([3, 2]);
    expect(await iids({ milestone: "v1" })).toEqual([1]);
    expect(await iids({ milestone: "None" })).toEqual([3, 2]);
    expect(await iids({ milestone: "Any" })).toEqual([1]);
    expect(await iids({ milestone: "Upcoming" })).toEqual([1]);
    expect(await iids({ notMilestone: "v1" })).toEqual([3, 2]);
    expect(await iids({ assigneeId: "None" })).toEqual([2]);
    expect(await iids({ assigneeId: "Any" })).toEqual([3, 1]);
    expect(await iids({ assigneeId: String(bob.userId) })).toEqual([3]);
    expect(await iids({ notAssigneeId: String(bob.userId) })).toEqual([2, 1]);
    expect(await iids({ assigneeUserIds: [alice.userId, bob.userId] })).toEqual([3]);
    expect(await iids({ authorId: alice.userId })).toEqual([2]);
    expect(await iids({ notAuthorId: alice.userId })).toEqual([3, 1]);
    expect(await iids({ myReactionEmoji: "thumbsup" })).toEqual([3]);
    expect(await iids({ myReactionEmoji: "None" })).toEqual([2, 1]);
    expect(await iids({ myReactionEmoji: "Any" })).toEqual([3]);
    expect(await iids({ myReactionEmoji: "thumbsup" }, alice)).toEqual([]);
    expect(await iids({ search: "crash" })).toEqual([2, 1]);
    expect(await iids({ search: "crash", searchIn: ["title"] })).toEqual([1]);
    expect(await iids({ iids: [1, 3] })).toEqual([3, 1]);
    expect(await iids({ notIids: [1, 3] })).toEqual([2]);
    expect(await iids({ createdAfter: "2999-01-01T00:00:00Z" })).toEqual([]);
    expect(await iids({ createdBefore: "2999-01-01T00:00:00Z" })).toEqual([3, 2, 1]);
    expect(await iids({ updatedBefore: "2000-01-01T00:00:00Z" })).toEqual([]);
    expect(await iids({ dueDate: "overdue" })).toEqual([2]);
    expect(await iids({ dueDate: "0" })).toEqual([3, 1]);
    expect(await iids({ confidential: true })).toEqual([3]);
    expect(await iids({ issueTypes: ["incident"] })).toEqual([3]);
    expect(await iids({ notIssueTypes: ["incident"] })).toEqual([2, 1]);
    expect(await iids({ scope: "created_by_me" }, alice)).toEqual([2]);
    expect(await iids({ scope: "assigned_to_me" }, bob)).toEqual([3]);
    expect(await iids({ orderBy: "title", sort: "asc" })).toEqual([1, 2, 3]);
    expect(await iids({ orderBy: "due_date", sort: "asc" })).toEqual([2, 1, 3]);
    expect(await iids({ idAfter: i1.id, sort: "asc", orderBy: "id" })).toEqual([2, 3]);
    expect(await iids({ idBefore: i3.id, orderBy: "id" })).toEqual([2, 1]);
    expect(await iids({ orderBy: "popularity" })).toEqual([3, 2, 1]);
    expect(await iids({ orderBy: "popularity", sort: "asc" })).toEqual([2, 1, 3]);
    await t.svc.deps.prisma.labelPriority.createMany({
      data: [
        { projectId: project.id, labelId: Number(i1.labels.find((l) => l.name === "p1")!.id), priority: 5 },
        { projectId: project.id, labelId: Number(i2.labels[0]!.id), priority: 1 },
      ],
    });
    expect(await iids({ orderBy: "label_priority", sort: "asc" })).toEqual([2, 1, 3]);
    expect(await iids({ orderBy: "label_priority", sort: "desc" })).toEqual([1, 2, 3]);
    expect(await iids({ orderBy: "priority", sort: "asc", page: { page: 1, perPage: 2 } })).toEqual([1, 2]);
    const page = await t.client.ListIssues({ ...ref, page: { page: 2, perPage: 2 } });
    expect(page.issues.map((i) => Number(i.iid))).toEqual([1]);
    expect(Number(page.pageInfo?.total)).toBe(3);
    expect((await failure(t.client.ListIssues({ ...ref, dueDate: "someday" }))).status).toBe(400);
  });

  it("hides confidential issues per project in project, group and instance lists", async () => {
    const group = await t.group({ visibility: "public" });
    const sub = await t.group({ parentId: group.id, visibility: "public" });
    const [pa, pb, priv] = [
      await t.project({ namespaceId: group.id }),
      await t.project({ namespaceId: sub.id }),
      await t.project({ namespaceId: sub.id, visibility: "private" }),
    ];
    const elsewhere = await t.project();
    const [author, assignee, guest, reporter, outsider] = [await t.user(), await t.user(), await t.user(), await t.user(), await t.user()];
    for (const p of [pa, pb]) await t.member("project", p.id, guest, AccessLevel.GUEST);
    await t.member("project", pb.id, author, AccessLevel.GUEST);
    await t.member("project", pb.id, reporter, AccessLevel.REPORTER);
    await t.client.CreateIssue({ actor: t.admin, project: String(pa.id), title: "a-open" });
    await t.client.CreateIssue({ actor: t.admin, project: String(pa.id), title: "a-secret", confidential: true });
    await t.client.CreateIssue({ actor: author, project: String(pb.id), title: "b-secret", confidential: true });
    await t.client.CreateIssue({ actor: t.admin, project: String(pb.id), title: "b-assigned", confidential: true, assigneeIds: [assignee.userId] });
    await t.client.CreateIssue({ actor: t.admin, project: String(priv.id), title: "private" });
    await t.client.CreateIssue({ actor: t.admin, project: String(elsewhere.id), title: "elsewhere" });

    const titles = async (actor: TestActor, where: { group?: string; project?: string }) =>
      (await t.client.ListIssues({ actor, ...where, sort: "asc" })).issues.map((i) => i.title);
    const inGroup = { group: String(group.id) };
    expect(await titles(t.admin, inGroup)).toEqual(["a-open", "a-secret", "b-secret", "b-assigned", "private"]);
    expect(await titles(t.anonymous, inGroup)).toEqual(["a-open"]);
    expect(await titles(outsider, inGroup)).toEqual(["a-open"]);
    expect(await titles(guest, inGroup)).toEqual(["a-open"]);
    expect(await titles(author, inGroup)).toEqual(["a-open", "b-secret"]);
    expect(await titles(assignee, inGroup)).toEqual(["a-open", "b-assigned"]);
    expect(await titles(reporter, inGroup)).toEqual(["a-open", "b-secret", "b-assigned"]);
    expect(await titles(reporter, { group: String(sub.id) })).toEqual(["b-secret", "b-assigned"]);
    expect(await titles(reporter, { project: String(pb.id) })).toEqual(["b-secret", "b-assigned"]);
    expect(await titles(guest, { project: String(pb.id) })).toEqual([]);
    const everywhere = await titles(author, {});
    expect(everywhere).toContain("elsewhere");
    expect(everywhere).toContain("b-secret");
    expect(everywhere).not.toContain("a-secret");
    expect(everywhere).not.toContain("private");
    const privGroup = await t.group({ visibility: "private" });
    expect(await failure(t.client.ListIssues({ actor: outsider, group: String(privGroup.id) }))).toEqual({
      status: 404,
      body: { message: "404 Group Not Found" },
    });
    expect((await t.client.ListIssues({ actor: t.admin, ...inGroup })).groupFullPath).toBe(group.fullPath);
  });
});
