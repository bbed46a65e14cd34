import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_create");
});
afterAll(() => t?.close());

describe("CreateLabel", () => {
  it("creates a project label with GitLab's stored colour and its priority", async () => {
    const project = await t.project();
    const l = await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.path), name: " feature ", color: "Orange", priority: 3 });
    expect(l).toMatchObject({ name: "feature", color: "#FFA500", projectId: project.id, groupId: 0, priority: 3, subscribed: false });
    expect(l.description).toBeUndefined();
    const g = await t.group();
    const gl = await t.client.CreateLabel({ actor: t.admin, parent: groupParent(g.fullPath), name: "grouped", color: "#abc", description: "d", priority: 9 });
    expect(gl).toMatchObject({ name: "grouped", color: "#abc", groupId: g.id, projectId: 0, description: "d" });
    expect(gl.priority).toBeUndefined();
  });

  it("answers GitLab's validation errors, colour before title", async () => {
    const project = await t.project();
    const parent = projectParent(project.id);
    expect(await failure(t.client.CreateLabel({ actor: t.admin, parent, name: "x", color: "#GGGGGG" }))).toEqual({
      status: 400,
      body: { message: { color: ["must be a valid color code"] } },
    });
    expect(await failure(t.client.CreateLabel({ actor: t.admin, parent, name: "a,b", color: "notacolor" }))).toEqual({
      status: 400,
      body: { message: { color: ["must be a valid color code"], title: ["is invalid"] } },
    });
    expect(await failure(t.client.CreateLabel({ actor: t.admin, parent, name: "x".repeat(256), color: "#fff" }))).toEqual({
      status: 400,
      body: { message: { title: ["is too long (maximum is 255 characters)"] } },
    });
  });

  it("refuses a title already available in the project, its groups' included (409 Label already exists)", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(group.id), name: "shared", color: "#fff" });
    expect(await failure(t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: "shared", color: "#000" }))).toEqual({
      status: 409,
      body: { message: "Label already exists" },
    });
  });

  it("needs Reporter (admin_label) in the project or group: a guest gets 403, an outsider of a private project 404", async () => {
    const group = await t.group({ visibility: "private" });
    const project = await t.project({ namespaceId: group.id, visibility: "private" });
    const guest = await t.user();
    await t.member("project", project.id, guest, 10);
    await t.member("group", group.id, guest, 10);
    expect(await failure(t.client.CreateLabel({ actor: guest, parent: projectParent(project.id), name: "g", color: "#fff" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect(await failure(t.client.CreateLabel({ actor: guest, parent: groupParent(group.id), name: "g", color: "#fff" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    const outsider = await t.user();
    expect((await failure(t.client.CreateLabel({ actor: outsider, parent: projectParent(project.id), name: "g", color: "#fff" }))).status).toBe(404);
    const reporter = await t.user();
    await t.member("project", project.id, reporter, 20);
    expect((await t.client.CreateLabel({ actor: reporter, parent: projectParent(project.id), name: "r", color: "#fff" })).name).toBe("r");
  });
});
