import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_get");
});
afterAll(() => t?.close());

describe("GetLabel", () => {
  it("finds a label by id first, then by title, its groups' labels only when ancestors are included", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const byTitle = await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: "bug", color: "#fff" });
    const numeric = await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: String(byTitle.id), color: "#000" });
    const groupLabel = await t.client.CreateLabel({ actor: t.admin, parent: groupParent(group.id), name: "group one", color: "#000" });
    const get = (label: string, includeAncestorGroups = true) =>
      t.client.GetLabel({ actor: t.anonymous, parent: projectParent(project.id), label, includeAncestorGroups });
    expect((await get("bug")).id).toBe(byTitle.id);
    expect((await get(String(byTitle.id))).id).toBe(byTitle.id);
    expect((await get(String(numeric.id))).id).toBe(numeric.id);
    expect((await get("group one")).id).toBe(groupLabel.id);
    expect(await failure(get("group one", false))).toEqual({ status: 404, body: { message: "404 Label Not Found" } });
    expect(await failure(get("nope"))).toEqual({ status: 404, body: { message: "404 Label Not Found" } });
  });
});
