import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";
import { forgetProject } from "./project-destroy.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_forget");
});
afterAll(() => t?.close());

describe("project deletion", () => {
  it("removes the project's labels, milestones, priorities and subscriptions when identity-service deletes it", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const kept = await t.project({ namespaceId: group.id });
    const user = await t.user();
    await t.client.CreateLabel({ actor: t.admin, parent: groupParent(group.id), name: "shared", color: "#fff" });
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: "own", color: "#fff" });
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(kept.id), name: "other", color: "#fff" });
    await t.client.UpdateLabel({ actor: t.admin, parent: projectParent(project.id), label: "own", updatePriority: true, priority: 1 });
    await t.client.SubscribeLabel({ actor: user, parent: projectParent(project.id), label: "shared" });
    await t.client.CreateMilestone({ actor: t.admin, parent: projectParent(project.id), title: "m" });
    const db = t.svc.deps.prisma;
    await t.identity.DeleteProject({ actor: t.admin, idOrPath: String(project.id) });
    await waitFor(async () => (await db.label.count({ where: { projectId: project.id } })) === 0, { message: "the project's labels to go" });
    expect(await db.milestone.count({ where: { projectId: project.id } })).toBe(0);
    expect(await db.labelPriority.count({ where: { projectId: project.id } })).toBe(0);
    expect(await db.labelSubscription.count({ where: { projectId: project.id } })).toBe(0);
    expect(await db.label.count({ where: { OR: [{ groupId: group.id }, { projectId: kept.id }] } })).toBe(2);
    // A redelivery finds nothing left to do.
    await forgetProject(t.svc.deps, project.id);
  });
});
