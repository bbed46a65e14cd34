import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_ms_update");
});
afterAll(() => t?.close());

describe("UpdateMilestone", () => {
  it("closes and activates, retitles, changes and clears dates, checks the dates together", async () => {
    const project = await t.project();
    const parent = projectParent(project.id);
    const m = await t.client.CreateMilestone({ actor: t.admin, parent, title: "m", dueDate: "2030-05-01" });
    expect((await t.client.UpdateMilestone({ actor: t.admin, parent, milestoneId: m.id, stateEvent: "close" })).state).toBe("closed");
    expect((await t.client.UpdateMilestone({ actor: t.admin, parent, milestoneId: m.id, stateEvent: "activate" })).state).toBe("active");
    expect(await failure(t.client.UpdateMilestone({ actor: t.admin, parent, milestoneId: m.id, startDate: "2030-05-01" }))).toEqual({
      status: 400,
      body: { message: 'Failed to update milestone {:due_date=>["must be greater than start date"]}' },
    });
    const u = await t.client.UpdateMilestone({ actor: t.admin, parent, milestoneId: m.id, title: "renamed", startDate: "2030-04-01", description: "d" });
    expect(u).toMatchObject({ title: "renamed", startDate: "2030-04-01", dueDate: "2030-05-01", description: "d" });
    const cleared = await t.client.UpdateMilestone({ actor: t.admin, parent, milestoneId: m.id, dueDate: "" });
    expect(cleared.dueDate).toBeUndefined();
    await t.client.CreateMilestone({ actor: t.admin, parent, title: "other" });
    expect(await failure(t.client.UpdateMilestone({ actor: t.admin, parent, milestoneId: m.id, title: "other" }))).toMatchObject({ status: 400 });
  });
});
