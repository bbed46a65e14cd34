import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_ms_create");
});
afterAll(() => t?.close());

describe("CreateMilestone", () => {
  it("numbers milestones per project and per group and answers GitLab's fields", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const dates = { startDate: "2030-01-01", dueDate: "2030-02-01" };
    const a = await t.client.CreateMilestone({ actor: t.admin, parent: projectParent(project.id), title: "v1", ...dates });
    expect(a).toMatchObject({ iid: 1, projectId: project.id, groupId: 0, title: "v1", state: "active", startDate: "2030-01-01", dueDate: "2030-02-01" });
    expect(a.webPath).toBe(`/${project.path}/-/milestones/1`);
    expect(a.description).toBeUndefined();
    expect((await t.client.CreateMilestone({ actor: t.admin, parent: projectParent(project.id), title: "v2", dueDate: "not a date" })).iid).toBe(2);
    const g = await t.client.CreateMilestone({ actor: t.admin, parent: groupParent(group.id), title: "q1", description: "quarter" });
    expect(g).toMatchObject({ iid: 1, groupId: group.id, projectId: 0, description: "quarter", webPath: `/groups/${group.fullPath}/-/milestones/1` });
  });

  it("refuses a start after the due date, a title in use in the project or its group, and Guests", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const parent = projectParent(project.id);
    expect(await failure(t.client.CreateMilestone({ actor: t.admin, parent, title: "x", startDate: "2030-02-01", dueDate: "2030-01-01" }))).toEqual({
      status: 400,
      body: { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
    });
    await t.client.CreateMilestone({ actor: t.admin, parent: groupParent(group.id), title: "taken" });
    expect(await failure(t.client.CreateMilestone({ actor: t.admin, parent, title: "taken" }))).toEqual({
      status: 400,
      body: { message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}' },
    });
    const guest = await t.user();
    await t.member("project", project.id, guest, 10);
    expect(await failure(t.client.CreateMilestone({ actor: guest, parent, title: "g" }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    // The refused creations used no iid.
    expect((await t.client.CreateMilestone({ actor: t.admin, parent, title: "first" })).iid).toBe(1);
  });
});
