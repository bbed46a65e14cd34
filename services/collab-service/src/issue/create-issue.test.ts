import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_create");
});
afterAll(() => t?.close());

describe("CreateIssue", () => {
  it("numbers issues per project without gaps or duplicates, even when created concurrently", async () => {
    const [a, b] = [await t.project(), await t.project()];
    const made = await Promise.all(Array.from({ length: 6 }, (_, i) => t.client.CreateIssue({ actor: t.admin, project: String(a.id), title: `t${i}` })));
    expect(made.map((i) => Number(i.iid)).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Number((await t.client.CreateIssue({ actor: t.admin, project: String(b.id), title: "other" })).iid)).toBe(1);
    const i = made[0]!;
    expect(i).toMatchObject({ projectId: a.id, projectPath: a.path, state: "opened", issueType: "issue", confidential: false, authorId: t.admin.userId });
  });

  it("finds labels (group labels of ancestors first) and creates missing ones; writes label and milestone events", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const gl = await t.client.CreateLabel({ actor: t.admin, parent: { group: String(group.id) }, name: "bug", color: "#ff0000" });
    const ms = await t.client.CreateMilestone({ actor: t.admin, parent: { group: String(group.id) }, title: "g1" });
    const issue = await t.client.CreateIssue({
      actor: t.admin,
      project: String(project.id),
      title: "x",
      labels: ["bug", "new one", " bug "],
      milestoneId: ms.id,
    });
    expect(issue.labels.map((l) => [l.name, Number(l.groupId) > 0])).toEqual([
      ["bug", true],
      ["new one", false],
    ]);
    expect(issue.labels[0]!.id).toBe(gl.id);
    expect(issue.labels[1]!.color).toBe("#6699cc");
    expect(issue.milestone?.title).toBe("g1");
    const labelEvents = await t.client.ListIssueResourceEvents({ actor: t.admin, project: String(project.id), issueIid: issue.iid, kind: "label" });
    expect(labelEvents.events.map((e) => [e.action, e.label?.name])).toEqual([
      ["add", "bug"],
      ["add", "new one"],
    ]);
    const msEvents = await t.client.ListIssueResourceEvents({ actor: t.admin, project: String(project.id), issueIid: issue.iid, kind: "milestone" });
    expect(msEvents.events.map((e) => [e.action, e.state, e.milestone?.title])).toEqual([["add", "opened", "g1"]]);
    // Another project's milestone is not allowed: the issue gets none.
    const other = await t.project();
    const foreign = await t.client.CreateMilestone({ actor: t.admin, parent: { project: String(other.id) }, title: "f" });
    expect((await t.client.CreateIssue({ actor: t.admin, project: String(project.id), title: "y", milestoneId: foreign.id })).milestone).toBeNull();
  });

  it("lets Guests create but drops their metadata; iid and created_at only for Owners; assignees must read the project", async () => {
    const project = await t.project({ visibility: "private" });
    const [guest, reporter, member, outsider] = [await t.user(), await t.user(), await t.user(), await t.user()];
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    await t.member("project", project.id, reporter, AccessLevel.REPORTER);
    await t.member("project", project.id, member, AccessLevel.DEVELOPER);
    const ms = await t.client.CreateMilestone({ actor: t.admin, parent: { project: String(project.id) }, title: "m" });
    const wanted = {
      labels: ["l"],
      milestoneId: ms.id,
      assigneeIds: [member.userId, outsider.userId],
      dueDate: "2030-01-02",
      iid: 50,
      createdAt: "2020-01-01T00:00:00Z",
    };
    const byGuest = await t.client.CreateIssue({ actor: guest, project: String(project.id), title: "g", confidential: true, issueType: "incident", ...wanted });
    expect(byGuest).toMatchObject({ iid: 1, issueType: "issue", labels: [], milestone: null, assigneeIds: [], confidential: true, authorId: guest.userId });
    expect(byGuest.dueDate).toBeFalsy();
    expect(byGuest.createdAt).not.toBe("2020-01-01T00:00:00.000Z");
    const byReporter = await t.client.CreateIssue({ actor: reporter, project: String(project.id), title: "r", issueType: "incident", ...wanted });
    expect(byReporter).toMatchObject({ iid: 2, issueType: "incident", labels: [{ name: "l" }], dueDate: "2030-01-02" });
    expect(byReporter.assigneeIds.map(Number)).toEqual([member.userId]);
    const byAdmin = await t.client.CreateIssue({ actor: t.admin, project: String(project.id), title: "a", ...wanted });
    expect(byAdmin).toMatchObject({ iid: 50, createdAt: "2020-01-01T00:00:00.000Z" });
    expect(Number((await t.client.CreateIssue({ actor: t.admin, project: String(project.id), title: "next" })).iid)).toBe(51);
    expect(await failure(t.client.CreateIssue({ actor: t.admin, project: String(project.id), title: "dup", iid: 50 }))).toEqual({
      status: 409,
      body: { message: "Duplicated issue" },
    });
    expect(await failure(t.client.CreateIssue({ actor: outsider, project: String(project.id), title: "x" }))).toEqual({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
    const open = await t.project({ visibility: "public" });
    expect((await failure(t.client.CreateIssue({ actor: t.anonymous, project: String(open.id), title: "x" }))).status).toBe(401);
    expect(await failure(t.client.CreateIssue({ actor: t.admin, project: String(open.id), title: "  " }))).toEqual({
      status: 400,
      body: { message: { title: ["can't be blank"] } },
    });
  });
});
