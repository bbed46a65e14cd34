import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_system_notes");
});
afterAll(() => t?.close());

describe("system notes of issue changes", () => {
  it("CreateIssue and UpdateIssue write GitLab's system notes; label, state and milestone changes stay resource events", async () => {
    const project = await t.project();
    const [ann, bob] = await Promise.all([t.user(), t.user()]);
    const [annName, bobName] = await Promise.all(
      [ann, bob].map(async (u) => (await t.identity.GetUsers({ actor: t.admin, ids: [u.userId] })).users[0]!.username),
    );
    const ref = { actor: t.admin, project: String(project.id) };
    const target = await t.client.CreateIssue({ ...ref, title: "target" });
    const issue = await t.client.CreateIssue({ ...ref, title: "Crash", assigneeIds: [ann.userId], dueDate: "2026-12-01", labels: ["bug"] });
    await t.client.UpdateIssue({
      ...ref,
      issueIid: issue.iid,
      title: "Crash on save",
      description: `see #${target.iid}`,
      setAssignees: true,
      assigneeIds: [bob.userId],
      confidential: true,
      discussionLocked: true,
      dueDate: "",
      stateEvent: "close",
      addLabels: ["p1"],
    });
    const bodies = async (iid: number) =>
      (
        await t.client.ListNotes({ actor: t.admin, noteable: { type: "Issue", project: String(project.id), id: iid }, sort: "asc", orderBy: "created_at" })
      ).notes.map((n) => [n.body, n.system, n.internal]);
    expect(await bodies(Number(issue.iid))).toEqual([
      ["changed due date to December 1, 2026", true, false],
      [`assigned to @${annName}`, true, false],
      ["changed title from **Crash** to **Crash{+ on save+}**", true, false],
      ["changed the description", true, false],
      ["locked the discussion in this issue", true, false],
      ["removed due date", true, false],
      [`assigned to @${bobName} and unassigned @${annName}`, true, false],
      ["made the issue confidential", true, false],
    ]);
    // The mention comes from a (now) confidential issue: an internal note on the target.
    expect(await bodies(Number(target.iid))).toEqual([[`mentioned in #${issue.iid}`, true, true]]);
    // An update that changes nothing writes nothing.
    await t.client.UpdateIssue({ ...ref, issueIid: issue.iid, title: "Crash on save" });
    expect((await bodies(Number(issue.iid))).length).toBe(8);
  });

  it("a comment mentioning another issue writes 'mentioned in' on it once", async () => {
    const project = await t.project();
    const ref = { actor: t.admin, project: String(project.id) };
    const target = await t.client.CreateIssue({ ...ref, title: "target" });
    const source = await t.client.CreateIssue({ ...ref, title: "source" });
    const noteable = { type: "Issue", project: String(project.id), id: Number(source.iid) };
    await t.client.CreateNote({ actor: t.admin, noteable, body: `related to #${target.iid}` });
    await t.client.CreateNote({ actor: t.admin, noteable, body: `again #${target.iid}` });
    const notes = (await t.client.ListNotes({ actor: t.admin, noteable: { ...noteable, id: Number(target.iid) } })).notes;
    expect(notes.map((n) => [n.body, n.system, n.internal])).toEqual([[`mentioned in #${source.iid}`, true, false]]);
  });
});
