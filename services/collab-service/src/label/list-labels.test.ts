import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_list");
});
afterAll(() => t?.close());

describe("ListLabels", () => {
  it("lists a project's labels with its groups' labels by title, unless ancestors are left out", async () => {
    const top = await t.group();
    const sub = await t.group({ parentId: top.id });
    const project = await t.project({ namespaceId: sub.id });
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: "bug", color: "#FF0000" });
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(sub.id), name: "area", color: "red" });
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(top.id), name: "company", color: "#00f" });
    const all = await t.client.ListLabels({ actor: t.anonymous, parent: projectParent(project.id), includeAncestorGroups: true });
    expect(all.labels.map((l) => l.name)).toEqual(["area", "bug", "company"]);
    expect(all.labels.map((l) => [l.projectId, l.groupId])).toEqual([
      [0, sub.id],
      [project.id, 0],
      [0, top.id],
    ]);
    expect(all.pageInfo).toEqual({ total: 3, page: 1, perPage: 20 });
    const own = await t.client.ListLabels({ actor: t.anonymous, parent: projectParent(project.id), includeAncestorGroups: false });
    expect(own.labels.map((l) => l.name)).toEqual(["bug"]);
    // A group lists its own and (by default) its ancestors' labels.
    expect((await t.client.ListLabels({ actor: t.anonymous, parent: groupParent(sub.id), includeAncestorGroups: true })).labels.map((l) => l.name)).toEqual([
      "area",
      "company",
    ]);
    expect((await t.client.ListLabels({ actor: t.anonymous, parent: groupParent(sub.id), includeAncestorGroups: false })).labels.map((l) => l.name)).toEqual([
      "area",
    ]);
  });

  it("searches titles and descriptions (words of three characters or more partially, shorter queries exactly) and pages", async () => {
    const project = await t.project();
    const parent = projectParent(project.id);
    for (const [name, description] of [
      ["frontend", "UI work"],
      ["backend", "server side"],
      ["ui", undefined],
      ["docs", "documentation of the UI"],
    ] as const) {
      await t.client.CreateLabel({ actor: t.admin, parent, name, color: "#123456", description });
    }
    const names = async (search: string) => (await t.client.ListLabels({ actor: t.admin, parent, search })).labels.map((l) => l.name);
    expect(await names("END")).toEqual(["backend", "frontend"]);
    expect(await names("server side")).toEqual(["backend"]);
    expect(await names("ui")).toEqual(["ui"]);
    expect(await names("doc UI")).toEqual(["docs"]);
    expect(await names("documentation")).toEqual(["docs"]);
    const page = await t.client.ListLabels({ actor: t.admin, parent, page: { page: 2, perPage: 3 } });
    expect(page.labels.map((l) => l.name)).toEqual(["ui"]);
    expect(page.pageInfo).toEqual({ total: 4, page: 2, perPage: 3 });
  });

  it("hides the labels of a private project or group from outsiders (404) and shows them to guests", async () => {
    const group = await t.group({ visibility: "private" });
    const project = await t.project({ namespaceId: group.id, visibility: "private" });
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: "secret", color: "#000000" });
    const outsider = await t.user();
    expect(await failure(t.client.ListLabels({ actor: outsider, parent: projectParent(project.id) }))).toEqual({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
    expect(await failure(t.client.ListLabels({ actor: t.anonymous, parent: groupParent(group.id) }))).toEqual({
      status: 404,
      body: { message: "404 Group Not Found" },
    });
    const guest = await t.user();
    await t.member("project", project.id, guest, 10);
    expect((await t.client.ListLabels({ actor: guest, parent: projectParent(project.id) })).labels.map((l) => l.name)).toEqual(["secret"]);
  });
});
