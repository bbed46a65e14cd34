import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_ms_delete");
});
afterAll(() => t?.close());

describe("DeleteMilestone", () => {
  it("deletes for Reporters and above; Guests get 403", async () => {
    const project = await t.project({ visibility: "private" });
    const parent = projectParent(project.id);
    const m = await t.client.CreateMilestone({ actor: t.admin, parent, title: "m" });
    const guest = await t.user();
    await t.member("project", project.id, guest, 10);
    expect(await failure(t.client.DeleteMilestone({ actor: guest, parent, milestoneId: m.id }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    const reporter = await t.user();
    await t.member("project", project.id, reporter, 20);
    await t.client.DeleteMilestone({ actor: reporter, parent, milestoneId: m.id });
    expect((await failure(t.client.GetMilestone({ actor: t.admin, parent, milestoneId: m.id }))).status).toBe(404);
  });
});
