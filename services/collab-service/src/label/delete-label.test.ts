import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_delete");
});
afterAll(() => t?.close());

describe("DeleteLabel", () => {
  it("deletes a label of the parent itself with its priorities and subscriptions", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const parent = projectParent(project.id);
    const l = await t.client.CreateLabel({ actor: t.admin, parent, name: "gone", color: "#fff", priority: 1 });
    await t.client.SubscribeLabel({ actor: t.admin, parent, label: "gone" });
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(group.id), name: "kept", color: "#fff" });
    expect(await failure(t.client.DeleteLabel({ actor: t.admin, parent, label: "kept" }))).toEqual({ status: 404, body: { message: "404 Label Not Found" } });
    const guest = await t.user();
    await t.member("project", project.id, guest, 10);
    expect(await failure(t.client.DeleteLabel({ actor: guest, parent, label: "gone" }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    await t.client.DeleteLabel({ actor: t.admin, parent, label: String(l.id) });
    expect(await failure(t.client.GetLabel({ actor: t.admin, parent, label: "gone", includeAncestorGroups: true }))).toMatchObject({ status: 404 });
    expect(await t.svc.deps.prisma.labelPriority.count({ where: { labelId: l.id } })).toBe(0);
    expect(await t.svc.deps.prisma.labelSubscription.count({ where: { labelId: l.id } })).toBe(0);
    expect((await t.client.GetLabel({ actor: t.admin, parent: groupParent(group.id), label: "kept", includeAncestorGroups: true })).name).toBe("kept");
  });
});
