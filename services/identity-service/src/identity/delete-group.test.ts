import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskPathFor } from "./convert.ts";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("DeleteGroup", () => {
  it("removes subgroups, projects, memberships and repositories", async () => {
    const u = await f.user();
    const g = await f.c.CreateGroup({ actor: u, name: "Gone", path: "gone" });
    const sub = await f.c.CreateGroup({ actor: u, name: "Sub", path: "sub", parentId: g.id });
    const p = await f.c.CreateProject({ actor: u, name: "p", namespaceId: sub.id, initializeWithReadme: true });
    const dir = path.join(f.storageRoot, diskPathFor(Number(p.id)));
    expect(fs.existsSync(dir)).toBe(true);
    const maint = await f.user();
    await f.c.AddMember({ actor: u, source: { kind: "group", idOrPath: "gone" }, userId: maint.userId, accessLevel: 40 });
    expect((await failure(f.c.DeleteGroup({ actor: maint, idOrPath: "gone" }))).status).toBe(403);
    await f.c.DeleteGroup({ actor: u, idOrPath: "gone" });
    expect(await f.deps.prisma.namespace.count({ where: { id: { in: [Number(g.id), Number(sub.id)] } } })).toBe(0);
    expect(await f.deps.prisma.member.count({ where: { sourceType: "namespace", sourceId: Number(g.id) } })).toBe(0);
    expect(fs.existsSync(dir)).toBe(false);
    const destroyed = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.identity.project_destroy" } });
    expect(destroyed.map((e) => (e.payload as { project_id: number }).project_id)).toContain(Number(p.id));
    // One group_destroy per group gone, the subgroup too, written with the deletion (the refused one above wrote none).
    const groups = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.identity.group_destroy" } });
    const payloads = groups.map((e) => e.payload as Record<string, unknown>).filter((e) => [Number(g.id), Number(sub.id)].includes(Number(e.group_id)));
    expect(payloads).toHaveLength(2);
    expect(payloads.find((e) => e.group_id === Number(sub.id))).toMatchObject({
      event_name: "group_destroy",
      name: "Sub",
      path: "sub",
      full_path: "gone/sub",
      parent_id: Number(g.id),
    });
  });
});
