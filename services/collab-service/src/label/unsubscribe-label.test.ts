import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectParent, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_unsubscribe");
});
afterAll(() => t?.close());

describe("UnsubscribeLabel", () => {
  it("changes nothing for a user who never subscribed (GitLab's 304), then unsubscribes a subscriber", async () => {
    const project = await t.project();
    const parent = projectParent(project.id);
    await t.client.CreateLabel({ actor: t.admin, parent, name: "l", color: "#fff" });
    const user = await t.user();
    expect(await t.client.UnsubscribeLabel({ actor: user, parent, label: "l" })).toMatchObject({ changed: false, label: { subscribed: false } });
    await t.client.SubscribeLabel({ actor: user, parent, label: "l" });
    expect(await t.client.UnsubscribeLabel({ actor: user, parent, label: "l" })).toMatchObject({ changed: true, label: { subscribed: false } });
  });
});
