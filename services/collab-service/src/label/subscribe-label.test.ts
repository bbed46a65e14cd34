import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, groupParent, projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_subscribe");
});
afterAll(() => t?.close());

describe("SubscribeLabel / UnsubscribeLabel", () => {
  it("subscribes per user and per project asked through; repeating changes nothing", async () => {
    const group = await t.group();
    const project = await t.project({ namespaceId: group.id });
    const label = await t.client.CreateLabel({ actor: t.admin, parent: groupParent(group.id), name: "watched", color: "#fff" });
    const user = await t.user();
    const viaProject = { actor: user, parent: projectParent(project.id), label: "watched" };
    const first = await t.client.SubscribeLabel(viaProject);
    expect(first).toMatchObject({ changed: true, label: { id: label.id, subscribed: true } });
    expect((await t.client.SubscribeLabel(viaProject)).changed).toBe(false);
    // The subscription is the project's: through the group, and for another user, the label is not subscribed.
    expect((await t.client.GetLabel({ actor: user, parent: groupParent(group.id), label: "watched", includeAncestorGroups: true })).subscribed).toBe(false);
    const asAdmin = await t.client.GetLabel({ actor: t.admin, parent: projectParent(project.id), label: "watched", includeAncestorGroups: true });
    expect(asAdmin.subscribed).toBe(false);
    expect((await t.client.ListLabels({ actor: user, parent: projectParent(project.id), includeAncestorGroups: true })).labels[0]!.subscribed).toBe(true);
    const off = await t.client.UnsubscribeLabel(viaProject);
    expect(off).toMatchObject({ changed: true, label: { subscribed: false } });
    expect((await t.client.UnsubscribeLabel(viaProject)).changed).toBe(false);
  });

  it("needs a signed-in user (401)", async () => {
    const project = await t.project();
    await t.client.CreateLabel({ actor: t.admin, parent: projectParent(project.id), name: "x", color: "#fff" });
    expect(await failure(t.client.SubscribeLabel({ actor: t.anonymous, parent: projectParent(project.id), label: "x" }))).toEqual({
      status: 401,
      body: { message: "401 Unauthorized" },
    });
  });
});
