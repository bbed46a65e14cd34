// Push mirror changes made for a user write an audit record (quarry.audit.event) in the same transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type MirrorTestContext } from "../../test/support.ts";

let t: MirrorTestContext;
beforeAll(async () => {
  t = await setUp("mirror_audit");
});
afterAll(() => t?.close());

describe("push mirror audit records", () => {
  it("records create, update and delete with the actor, never the credentials; none without an actor", async () => {
    const { svc, client } = await t.startMirror();
    const actor = { userId: 6, ipAddress: "192.0.2.66" };
    const m = await client.CreateMirror({ projectId: 21, diskPath: "@hashed/aa/bb/x.git", url: "https://bob:s3cret@example.com/a/b.git", actor });
    await client.UpdateMirror({ projectId: 21, mirrorId: m.id, enabled: true, actor });
    await client.DeleteMirror({ projectId: 21, mirrorId: m.id, actor });
    await client.CreateMirror({ projectId: 21, diskPath: "@hashed/aa/bb/x.git", url: "https://example.com/c.git" });
    const rows = await svc.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.audit.event" }, orderBy: { id: "asc" } });
    const id = Number(m.id);
    const common = {
      event_id: expect.any(String),
      actor: { user_id: 6, ip_address: "192.0.2.66" },
      entity_type: "Project",
      entity_id: 21,
      entity_path: "",
      target_type: "RemoteMirror",
      target_id: id,
      target_details: String(id),
    };
    expect(rows.map((r) => r.payload)).toEqual([
      { ...common, event_name: "remote_mirror_created", details: { custom_message: `Created push mirror with id ${id}` } },
      { ...common, event_name: "remote_mirror_updated", details: { custom_message: `Updated push mirror with id ${id}` } },
      { ...common, event_name: "remote_mirror_destroyed", details: { custom_message: `Deleted push mirror with id ${id}` } },
    ]);
    expect(JSON.stringify(rows.map((r) => r.payload))).not.toContain("s3cret");
  });
});
