import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_events");
});
afterAll(() => t?.close());

describe("ListIssueResourceEvents", () => {
  it("pages an issue's events, answers one by id, 404 for another issue's event; a deleted label shows as none", async () => {
    const project = await t.project();
    const ref = { actor: t.admin, project: String(project.id) };
    const a = await t.client.CreateIssue({ ...ref, title: "a", labels: ["x", "y", "z"] });
    const b = await t.client.CreateIssue({ ...ref, title: "b", labels: ["x"] });
    const all = await t.client.ListIssueResourceEvents({ ...ref, issueIid: a.iid, kind: "label", page: { page: 2, perPage: 2 } });
    expect(all.events.map((e) => e.label?.name)).toEqual(["z"]);
    expect(Number(all.pageInfo?.total)).toBe(3);
    expect(all.events[0]).toMatchObject({ action: "add", userId: t.admin.userId, issueId: a.id });
    const [ofB] = (await t.client.ListIssueResourceEvents({ ...ref, issueIid: b.iid, kind: "label" })).events;
    expect((await t.client.ListIssueResourceEvents({ ...ref, issueIid: b.iid, kind: "label", eventId: ofB!.id })).events).toHaveLength(1);
    expect(await failure(t.client.ListIssueResourceEvents({ ...ref, issueIid: a.iid, kind: "label", eventId: ofB!.id }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    const z = a.labels.find((l) => l.name === "z")!;
    await t.svc.deps.prisma.resourceLabelEvent.updateMany({ where: { labelId: Number(z.id) }, data: { labelId: null } });
    const after = await t.client.ListIssueResourceEvents({ ...ref, issueIid: a.iid, kind: "label" });
    expect(after.events.map((e) => e.label?.name ?? null)).toEqual(["x", "y", null]);
    expect((await failure(t.client.ListIssueResourceEvents({ ...ref, issueIid: 99, kind: "state" }))).body).toEqual({ message: "404 Issue Not Found" });
  });
});
