import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";
import { forgetGroup } from "./group-destroy.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_forget_group");
});
afterAll(() => t?.close());

describe("group deletion", () => {
  it("removes the labels and milestones of the group and its subgroups when identity-service deletes it, and nothing else", async () => {
    const group = await t.group();
    const sub = await t.group({ parentId: group.id });
    const kept = await t.group();
    const project = await t.project({ namespaceId: kept.id });
    const user = await t.user();
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(group.id), name: "top", color: "#fff" });
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(sub.id), name: "nested", color: "#fff" });
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(kept.id), name: "kept", color: "#fff" });
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: "own", color: "#fff" });
    await t.client.UpdateLabel({ actor: t.admin, parent: projectParent(project.id), label: "own", updatePriority: true, priority: 1 });
    await t.client.SubscribeLabel({ actor: user, parent: projectParent(project.id), label: "kept" });
    await t.client.CreateMilestone({ actor: t.admin, parent: groupParent(group.id), title: "m1" });
    await t.client.CreateMilestone({ actor: t.admin, parent: groupParent(sub.id), title: "m2" });
    await t.client.CreateMilestone({ actor: t.admin, parent: groupParent(kept.id), title: "m3" });
    const db = t.svc.deps.prisma;

    await t.identity.DeleteGroup({ actor: t.admin, idOrPath: String(group.id) });
    const gone = [group.id, sub.id];
    await waitFor(async () => (await db.label.count({ where: { groupId: { in: gone } } })) === 0, { message: "the groups' labels to go" });
    await waitFor(async () => (await db.milestone.count({ where: { groupId: { in: gone } } })) === 0, { message: "the groups' milestones to go" });
    expect(await db.milestoneIid.count({ where: { parent: { in: gone.map((id) => `group:${id}`) } } })).toBe(0);
    expect(await db.label.count({ where: { OR: [{ groupId: kept.id }, { projectId: project.id }] } })).toBe(2);
    expect(await db.milestone.count({ where: { groupId: kept.id } })).toBe(1);
    expect(await db.labelPriority.count({ where: { projectId: project.id } })).toBe(1);
    expect(await db.labelSubscription.count({ where: { projectId: project.id } })).toBe(1);
    // A redelivery finds nothing left to do.
    await forgetGroup(t.svc.deps, group.id);
  });
});
