import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_promote");
});
afterAll(() => t?.close());

describe("PromoteLabel", () => {
  it("merges the same-titled labels of the group's projects into a new group label, keeping priorities and subscriptions", async () => {
    const group = await t.group();
    const a = await t.project({ namespaceId: group.id, visibility: "private" });
    const b = await t.project({ namespaceId: group.id });
    const la = await t.client.CreateLabel({ actor: t.admin, parent: projectParent(a.id), name: "bug", color: "#ff0000", description: "d", priority: 3 });
    const lb = await t.client.CreateLabel({ actor: t.admin, parent: projectParent(b.id), name: "bug", color: "#00ff00" });
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(b.id), name: "other", color: "#00ff00" });
    const user = await t.user();
    await t.client.SubscribeLabel({ actor: user, parent: projectParent(b.id), label: "bug" });
    const promoted = await t.client.PromoteLabel({ actor: t.admin, parent: projectParent(a.id), label: "bug" });
    expect(promoted).toMatchObject({ name: "bug", color: "#ff0000", description: "d", groupId: group.id, projectId: 0 });
    expect(promoted.priority).toBeUndefined();
    const inA = await t.client.GetLabel({ actor: t.admin, parent: projectParent(a.id), label: "bug", includeAncestorGroups: true });
    expect(inA).toMatchObject({ id: promoted.id, priority: 3 });
    const inB = await t.client.GetLabel({ actor: user, parent: projectParent(b.id), label: "bug", includeAncestorGroups: true });
    expect(inB).toMatchObject({ id: promoted.id, subscribed: true });
    expect(await t.svc.deps.prisma.label.count({ where: { id: { in: [la.id, lb.id] } } })).toBe(0);
    expect((await t.client.ListLabels({ actor: t.admin, parent: projectParent(b.id), includeAncestorGroups: false })).labels.map((l) => l.name)).toEqual([
      "other",
    ]);
  });

  it("refuses a project outside any group (400), a Guest of the group (403) and another parent's label (404)", async () => {
    const alone = await t.project();
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(alone.id), name: "x", color: "#000" });
    expect(await failure(t.client.PromoteLabel({ actor: t.admin, parent: projectParent(alone.id), label: "x" }))).toEqual({
      status: 400,
      body: { message: "Failed to promote project label to group label" },
    });
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: "y", color: "#000" });
    const reporterOfProject = await t.user();
    await t.member("project", project.id, reporterOfProject, 20);
    expect(await failure(t.client.PromoteLabel({ actor: reporterOfProject, parent: projectParent(project.id), label: "y" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect(await failure(t.client.PromoteLabel({ actor: t.admin, parent: projectParent(project.id), label: "nope" }))).toEqual({
      status: 404,
      body: { message: "404 Label Not Found" },
    });
  });
});
