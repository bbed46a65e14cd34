import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

/** The member events written for a group, oldest first. */
async function memberEvents(groupId: number) {
  const rows = await f.deps.prisma.outboxEvent.findMany({ where: { subject: { startsWith: "quarry.identity.user_" } }, orderBy: { id: "asc" } });
  return rows.map((r) => ({ subject: r.subject, payload: r.payload as Record<string, unknown> })).filter((r) => r.payload.group_id === groupId);
}

const XMLSCHEMA = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe("group member events", () => {
  it("writes GitLab's group member payload with each add, update and remove", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "Member Events", path: "member-events" });
    const gid = Number(g.id);
    const src = { kind: "group", idOrPath: String(gid) };
    const dev = await f.user("robert");
    await f.deps.prisma.user.update({ where: { id: dev.userId }, data: { publicEmail: "robert@public.example.com" } });

    await f.c.AddMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 10, expiresAt: "2099-12-04" });
    let events = await memberEvents(gid);
    // The creator's Owner membership first (GitLab's add_owner), then the new member.
    expect(events.map((e) => [e.subject, e.payload.user_id])).toEqual([
      ["quarry.identity.user_add_to_group", owner.userId],
      ["quarry.identity.user_add_to_group", dev.userId],
    ]);
    const added = events[1]!.payload;
    expect(added).toEqual({
      event_id: expect.any(String),
      created_at: expect.stringMatching(XMLSCHEMA),
      updated_at: expect.stringMatching(XMLSCHEMA),
      group_name: "Member Events",
      group_path: "member-events",
      group_id: gid,
      user_username: "robert",
      user_name: "User robert",
      user_email: "robert@public.example.com",
      user_id: dev.userId,
      group_access: "Guest",
      expires_at: "2099-12-04T00:00:00Z",
      group_plan: null,
      event_name: "user_add_to_group",
      // Who did it, for audit events (hook-service strips it from webhook payloads).
      actor: { user_id: owner.userId, ip_address: "" },
    });
    // No public email: GitLab's webhook_email.
    expect(events[0]!.payload).toMatchObject({ user_email: "[REDACTED]", group_access: "Owner", expires_at: null });

    await f.c.UpdateMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 30, expiresAt: "" });
    events = await memberEvents(gid);
    expect(events).toHaveLength(3);
    expect(events[2]).toMatchObject({
      subject: "quarry.identity.user_update_for_group",
      payload: { event_name: "user_update_for_group", user_id: dev.userId, group_access: "Developer", expires_at: null },
    });
    // Nothing changed: no event (GitLab's post_update_hook looks at access_level and expires_at).
    await f.c.UpdateMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 30 });
    expect(await memberEvents(gid)).toHaveLength(3);

    await f.c.RemoveMember({ actor: owner, source: src, userId: dev.userId });
    events = await memberEvents(gid);
    expect(events).toHaveLength(4);
    expect(events[3]).toMatchObject({
      subject: "quarry.identity.user_remove_from_group",
      payload: { event_name: "user_remove_from_group", user_id: dev.userId, user_username: "robert", group_access: "Developer", group_id: gid },
    });
    expect(new Set(events.map((e) => e.payload.event_id)).size).toBe(4);
  });

  it("writes nothing when the change is refused", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "Refused", path: "refused-members" });
    const gid = Number(g.id);
    const src = { kind: "group", idOrPath: String(gid) };
    const dev = await f.user();
    const outsider = await f.user();
    await f.c.AddMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 30 });
    const before = (await memberEvents(gid)).length;
    expect(before).toBe(2); // the creator's and dev's

    expect((await failure(f.c.AddMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 30 }))).status).toBe(409);
    expect((await failure(f.c.AddMember({ actor: dev, source: src, userId: outsider.userId, accessLevel: 30 }))).status).toBe(403);
    expect((await failure(f.c.UpdateMember({ actor: dev, source: src, userId: dev.userId, accessLevel: 40 }))).status).toBe(403);
    expect((await failure(f.c.UpdateMember({ actor: owner, source: src, userId: owner.userId, accessLevel: 30 }))).status).toBe(409);
    expect((await failure(f.c.RemoveMember({ actor: owner, source: src, userId: owner.userId }))).status).toBe(409);
    expect((await failure(f.c.RemoveMember({ actor: dev, source: src, userId: owner.userId }))).status).toBe(403);
    expect(await memberEvents(gid)).toHaveLength(before);
  });

  it("writes none for project memberships, only for the group's (GitLab's member hooks are group hooks')", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "Proj", path: "proj-members" });
    const p = await f.c.CreateProject({ actor: owner, name: "p", namespaceId: g.id });
    const dev = await f.user();
    const before = await f.deps.prisma.outboxEvent.count({ where: { subject: { startsWith: "quarry.identity.user_" } } });
    const src = { kind: "project", idOrPath: String(p.id) };
    await f.c.AddMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 30 });
    await f.c.UpdateMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 40 });
    await f.c.RemoveMember({ actor: owner, source: src, userId: dev.userId });
    // Then a change of the group's: the only new event.
    await f.c.AddMember({ actor: owner, source: { kind: "group", idOrPath: String(g.id) }, userId: dev.userId, accessLevel: 30 });
    const where = { subject: { startsWith: "quarry.identity.user_" } };
    const after = await f.deps.prisma.outboxEvent.findMany({ where, orderBy: { id: "asc" }, skip: before });
    expect(after.map((e) => [e.subject, (e.payload as { group_id: number }).group_id])).toEqual([["quarry.identity.user_add_to_group", Number(g.id)]]);
  });

  it("writes the creator's membership of a new subgroup, for the parents' hooks", async () => {
    const owner = await f.user();
    const parent = await f.c.CreateGroup({ actor: owner, name: "Parent", path: "parent-members" });
    const sub = await f.c.CreateGroup({ actor: owner, name: "Sub", path: "sub", parentId: parent.id });
    expect(await memberEvents(Number(sub.id))).toMatchObject([
      { subject: "quarry.identity.user_add_to_group", payload: { group_path: "sub", user_id: owner.userId, group_access: "Owner" } },
    ]);
  });

  it("writes an audit record (quarry.audit.event) for each project membership change, with the actor", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "Audited", path: "audited-members" });
    const p = await f.c.CreateProject({ actor: owner, name: "p", namespaceId: g.id });
    const dev = await f.user("auditee");
    const before = await f.deps.prisma.outboxEvent.count({ where: { subject: "quarry.audit.event" } });
    const src = { kind: "project", idOrPath: String(p.id) };
    const from = { ...owner, ipAddress: "203.0.113.5" };
    await f.c.AddMember({ actor: from, source: src, userId: dev.userId, accessLevel: 30 });
    await f.c.UpdateMember({ actor: from, source: src, userId: dev.userId, accessLevel: 40 });
    await f.c.RemoveMember({ actor: from, source: src, userId: dev.userId });
    const rows = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.audit.event" }, orderBy: { id: "asc" }, skip: before });
    const common = {
      actor: { user_id: owner.userId, ip_address: "203.0.113.5" },
      entity_type: "Project",
      entity_id: Number(p.id),
      entity_path: "audited-members/p",
      target_type: "User",
      target_id: dev.userId,
      target_details: "auditee",
    };
    expect(rows.map((r) => r.payload)).toEqual([
      { event_id: expect.any(String), event_name: "member_created", ...common, details: { add: "user_access", as: "Developer", expiry: "never" } },
      { event_id: expect.any(String), event_name: "member_updated", ...common, details: { change: "access_level", from: "Developer", to: "Maintainer" } },
      { event_id: expect.any(String), event_name: "member_destroyed", ...common, details: { remove: "user_access" } },
    ]);
  });
});
