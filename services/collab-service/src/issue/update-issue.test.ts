import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_update");
});
afterAll(() => t?.close());

describe("UpdateIssue", () => {
  it("closes and reopens (closed_at/closed_by set and cleared), changes labels and milestone, writing events", async () => {
    const project = await t.project();
    const ref = { actor: t.admin, project: String(project.id) };
    const m1 = await t.client.CreateMilestone({ actor: t.admin, parent: { project: String(project.id) }, title: "m1" });
    const issue = await t.client.CreateIssue({ ...ref, title: "t", labels: ["a", "b"] });
    const closed = await t.client.UpdateIssue({ ...ref, issueIid: issue.iid, stateEvent: "close" });
    expect(closed).toMatchObject({ state: "closed", closedById: t.admin.userId });
    expect(closed.closedAt).toBeTruthy();
    const reopened = await t.client.UpdateIssue({ ...ref, issueIid: issue.iid, stateEvent: "reopen" });
    expect(reopened).toMatchObject({ state: "opened", closedById: 0 });
    expect(reopened.closedAt).toBeFalsy();
    const relabelled = await t.client.UpdateIssue({ ...ref, issueIid: issue.iid, addLabels: ["c"], removeLabels: ["a", "unknown"], milestoneId: m1.id });
    expect(relabelled.labels.map((l) => l.name)).toEqual(["b", "c"]);
    expect(relabelled.milestone?.title).toBe("m1");
    const replaced = await t.client.UpdateIssue({ ...ref, issueIid: issue.iid, setLabels: true, labels: ["z"], milestoneId: 0 });
    expect(replaced.labels.map((l) => l.name)).toEqual(["z"]);
    expect(replaced.milestone).toBeNull();
    const events = async (kind: string) => (await t.client.ListIssueResourceEvents({ ...ref, issueIid: issue.iid, kind })).events;
    expect((await events("state")).map((e) => e.state)).toEqual(["closed", "reopened"]);
    expect((await events("label")).map((e) => `${e.action}:${e.label?.name}`)).toEqual([
      "add:a",
      "add:b",
      "add:c",
      "remove:a",
      "add:z",
      "remove:b",
      "remove:c",
    ]);
    expect((await events("milestone")).map((e) => `${e.action}:${e.milestone?.title}`)).toEqual(["add:m1", "remove:m1"]);
    // Closing a closed issue again writes nothing.
    await t.client.UpdateIssue({ ...ref, issueIid: issue.iid, stateEvent: "close" });
    await t.client.UpdateIssue({ ...ref, issueIid: issue.iid, stateEvent: "close" });
    expect((await events("state")).length).toBe(3);
  });

  it("lets the author and assignees update; drops metadata below Reporter; 403 for other Guests", async () => {
    const project = await t.project({ visibility: "private" });
    const [author, assignee, guest, reporter] = [await t.user(), await t.user(), await t.user(), await t.user()];
    for (const u of [author, assignee, guest]) await t.member("project", project.id, u, AccessLevel.GUEST);
    await t.member("project", project.id, reporter, AccessLevel.REPORTER);
    const issue = await t.client.CreateIssue({ actor: author, project: String(project.id), title: "mine" });
    await t.client.UpdateIssue({ actor: reporter, project: String(project.id), issueIid: issue.iid, setAssignees: true, assigneeIds: [assignee.userId] });
    const byAuthor = await t.client.UpdateIssue({
      actor: author,
      project: String(project.id),
      issueIid: issue.iid,
      title: "renamed",
      setLabels: true,
      labels: ["x"],
      confidential: true,
      dueDate: "2030-01-01",
    });
    expect(byAuthor).toMatchObject({ title: "renamed", labels: [], confidential: false });
    expect(byAuthor.dueDate).toBeFalsy();
    expect((await t.client.UpdateIssue({ actor: assignee, project: String(project.id), issueIid: issue.iid, description: "d" })).description).toBe("d");
    expect(await failure(t.client.UpdateIssue({ actor: guest, project: String(project.id), issueIid: issue.iid, title: "no" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    const byReporter = await t.client.UpdateIssue({
      actor: reporter,
      project: String(project.id),
      issueIid: issue.iid,
      confidential: true,
      dueDate: "2030-01-01",
    });
    expect(byReporter).toMatchObject({ confidential: true, dueDate: "2030-01-01" });
    // Unassigning everyone: an empty list.
    expect(
      (await t.client.UpdateIssue({ actor: reporter, project: String(project.id), issueIid: issue.iid, setAssignees: true, assigneeIds: [] })).assigneeIds,
    ).toEqual([]);
  });
});
