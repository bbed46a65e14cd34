// Webhook changes made for a user write an audit record (quarry.audit.event) in the same transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type Fixture } from "../test-fixture.ts";

describe("webhook audit records", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_audit");
  });
  afterAll(() => f?.stop());

  it("records create, update and delete with the actor; none without one", async () => {
    const actor = { userId: 9, ipAddress: "192.0.2.99" };
    const hook = await f.client.CreateHook({ owner: { groupId: 12 }, input: { url: "http://user:secret@127.0.0.1:9/" }, actor });
    const id = Number(hook.id);
    await f.client.UpdateHook({ owner: { groupId: 12 }, hookId: id, input: { url: "http://127.0.0.1:9/x" }, actor });
    await f.client.DeleteHook({ owner: { groupId: 12 }, hookId: id, actor });
    await f.client.CreateHook({ owner: { projectId: 3 }, input: { url: "http://127.0.0.1:9/" } });
    const rows = await f.svc.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.audit.event" }, orderBy: { id: "asc" } });
    const common = {
      event_id: expect.any(String),
      actor: { user_id: 9, ip_address: "192.0.2.99" },
      entity_type: "Group",
      entity_id: 12,
      entity_path: "",
      target_type: "GroupHook",
      target_id: id,
      target_details: String(id),
    };
    expect(rows.map((r) => r.payload)).toEqual([
      { ...common, event_name: "webhook_created", details: { custom_message: `Created group webhook with id ${id}` } },
      { ...common, event_name: "webhook_updated", details: { custom_message: `Updated group webhook with id ${id}` } },
      { ...common, event_name: "webhook_destroyed", details: { custom_message: `Deleted group webhook with id ${id}` } },
    ]);
    expect(JSON.stringify(rows.map((r) => r.payload))).not.toContain("secret");
  });
});
