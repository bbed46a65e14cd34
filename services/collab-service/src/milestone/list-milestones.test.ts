import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_ms_list");
});
afterAll(() => t?.close());

describe("ListMilestones", () => {
  it("orders by due date (none last) then newest first; each filter changes the answer", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const parent = projectParent(project.id);
    const mk = (title: string, extra: Record<string, string> = {}) => t.client.CreateMilestone({ actor: t.admin, parent, title, ...extra });
    const late = await mk("late", { dueDate: "2031-01-01" });
    const early = await mk("early", { dueDate: "2030-01-01", description: "release train" });
    const none1 = await mk("none one");
    const none2 = await mk("none two");
    await t.client.UpdateMilestone({ actor: t.admin, parent, milestoneId: none1.id, stateEvent: "close" });
    await t.client.CreateMilestone({ actor: t.admin, parent: groupParent(group.id), title: "group wide" });
    const titles = async (q: Record<string, unknown> = {}) =>
      (await t.client.ListMilestones({ actor: t.anonymous, parent, ...q })).milestones.map((m) => m.title);
    expect(await titles()).toEqual(["early", "late", "none two", "none one"]);
    expect(await titles({ state: "active" })).toEqual(["early", "late", "none two"]);
    expect(await titles({ state: "closed" })).toEqual(["none one"]);
    expect(await titles({ iids: [late.iid, none2.iid] })).toEqual(["late", "none two"]);
    expect(await titles({ title: "early" })).toEqual(["early"]);
    expect(await titles({ search: "train" })).toEqual(["early"]);
    expect(await titles({ includeAncestors: true })).toEqual(["early", "late", "group wide", "none two", "none one"]);
    expect(await titles({ includeAncestors: true, iids: [early.iid] })).toEqual(["early"]);
    const page = await t.client.ListMilestones({ actor: t.anonymous, parent, page: { page: 2, perPage: 3 } });
    expect(page.milestones.map((m) => m.title)).toEqual(["none one"]);
    expect(page.pageInfo).toEqual({ total: 4, page: 2, perPage: 3 });
  });

  it("hides a private project's milestones from outsiders", async () => {
    const project = await t.project({ visibility: "private" });
    const outsider = await t.user();
    expect(await failure(t.client.ListMilestones({ actor: outsider, parent: projectParent(project.id) }))).toEqual({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
  });
});
