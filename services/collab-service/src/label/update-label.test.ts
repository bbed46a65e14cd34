import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_update");
});
afterAll(() => t?.close());

describe("UpdateLabel", () => {
  it("renames, recolours, describes and (un)prioritizes a project label", async () => {
    const project = await t.project();
    const parent = projectParent(project.id);
    await t.client.CreateLabel({ actor: t.admin, parent, name: "old", color: "#fff" });
    const changes = { newName: "new", color: "navy", description: "text", updatePriority: true, priority: 2 };
    const u = await t.client.UpdateLabel({ actor: t.admin, parent, label: "old", ...changes });
    expect(u).toMatchObject({ name: "new", color: "#000080", description: "text", priority: 2 });
    const cleared = await t.client.UpdateLabel({ actor: t.admin, parent, label: String(u.id), updatePriority: true });
    expect(cleared.priority).toBeUndefined();
    expect(cleared.name).toBe("new");
  });

  it("answers has already been taken for a title in use, and 404 for the groups' labels", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const parent = projectParent(project.id);
    await t.client.CreateLabel({ actor: t.admin, parent, name: "one", color: "#fff" });
    await t.client.CreateLabel({ actor: t.admin, parent, name: "two", color: "#fff" });
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(group.id), name: "g", color: "#fff" });
    expect(await failure(t.client.UpdateLabel({ actor: t.admin, parent, label: "two", newName: "one" }))).toEqual({
      status: 400,
      body: { message: { title: ["has already been taken"] } },
    });
    expect(await failure(t.client.UpdateLabel({ actor: t.admin, parent, label: "two", color: "bad" }))).toEqual({
      status: 400,
      body: { message: { color: ["must be a valid color code"] } },
    });
    expect(await failure(t.client.UpdateLabel({ actor: t.admin, parent, label: "g", color: "#000" }))).toEqual({
      status: 404,
      body: { message: "404 Label Not Found" },
    });
    const guest = await t.user();
    await t.member("project", project.id, guest, 10);
    expect(await failure(t.client.UpdateLabel({ actor: guest, parent, label: "one", color: "#000" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
  });
});
