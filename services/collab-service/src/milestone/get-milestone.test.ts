import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_ms_get");
});
afterAll(() => t?.close());

describe("GetMilestone", () => {
  it("finds the parent's own milestones by id; others are 404 Not found", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const m = await t.client.CreateMilestone({ actor: t.admin, parent: projectParent(project.id), title: "m" });
    const g = await t.client.CreateMilestone({ actor: t.admin, parent: groupParent(group.id), title: "g" });
    expect((await t.client.GetMilestone({ actor: t.anonymous, parent: projectParent(project.id), milestoneId: m.id })).title).toBe("m");
    expect(await failure(t.client.GetMilestone({ actor: t.anonymous, parent: projectParent(project.id), milestoneId: g.id }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    expect(await failure(t.client.GetMilestone({ actor: t.anonymous, parent: projectParent(project.id), milestoneId: 999999 }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
  });
});
