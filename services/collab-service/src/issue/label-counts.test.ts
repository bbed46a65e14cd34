import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_label_counts");
});
afterAll(() => t?.close());

describe("ListLabels issue counts", () => {
  it("counts the open and closed issues the caller can see, per project or in a group's own projects", async () => {
    const group = await t.group();
    const sub = await t.group({ parentId: group.id });
    const project = await t.project({ namespaceId: group.id });
    const deeper = await t.project({ namespaceId: sub.id });
    const guest = await t.user();
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    await t.client.CreateLabel({ actor: t.admin, parent: { group: String(group.id) }, name: "shared", color: "#000000" });
    const ref = { actor: t.admin, project: String(project.id) };
    await t.client.CreateIssue({ ...ref, title: "open", labels: ["shared", "own"] });
    const closed = await t.client.CreateIssue({ ...ref, title: "closed", labels: ["shared"] });
    await t.client.UpdateIssue({ ...ref, issueIid: closed.iid, stateEvent: "close" });
    await t.client.CreateIssue({ ...ref, title: "secret", labels: ["shared"], confidential: true });
    await t.client.CreateIssue({ actor: t.admin, project: String(deeper.id), title: "deeper", labels: ["shared"] });

    const counts = async (actor: TestActor, parent: { project?: string; group?: string }) =>
      Object.fromEntries(
        (await t.client.ListLabels({ actor, parent, includeAncestorGroups: true })).labels.map((l) => [
          l.name,
          [Number(l.openIssuesCount), Number(l.closedIssuesCount)],
        ]),
      );
    expect(await counts(t.admin, { project: String(project.id) })).toEqual({ own: [1, 0], shared: [2, 1] });
    expect(await counts(guest, { project: String(project.id) })).toEqual({ own: [1, 0], shared: [1, 1] });
    expect(await counts(t.admin, { project: String(deeper.id) })).toEqual({ shared: [1, 0] });
    expect(await counts(t.admin, { group: String(group.id) })).toEqual({ shared: [2, 1] });
    expect(await counts(t.anonymous, { group: String(group.id) })).toEqual({ shared: [1, 1] });
  });
});
