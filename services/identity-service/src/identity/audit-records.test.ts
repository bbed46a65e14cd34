// Audit records identity-service publishes on quarry.audit.event for tokens and their use.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

async function auditRecords(tokenId: number) {
  const rows = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.audit.event" }, orderBy: { id: "asc" } });
  return rows.map((r) => r.payload as Record<string, unknown>).filter((p) => p.target_id === tokenId);
}

describe("token audit records", () => {
  it("records creation and revocation of personal access and impersonation tokens with the actor", async () => {
    const u = await f.user("tokenaudit");
    const admin = { ...f.admin, ipAddress: "192.0.2.10" };
    const t = await f.c.CreatePersonalAccessToken({ actor: admin, userId: u.userId, name: "ci", scopes: ["api"] });
    await f.c.RevokePersonalAccessToken({ actor: { ...u, ipAddress: "192.0.2.11" }, id: t.id });
    const common = {
      entity_type: "User",
      entity_id: u.userId,
      entity_path: "tokenaudit",
      target_type: "PersonalAccessToken",
      target_id: Number(t.id),
      target_details: "ci",
    };
    expect(await auditRecords(Number(t.id))).toEqual([
      {
        event_id: expect.any(String),
        event_name: "personal_access_token_created",
        actor: { user_id: f.admin.userId, ip_address: "192.0.2.10" },
        ...common,
        details: { custom_message: `Created personal access token with id ${t.id}` },
      },
      {
        event_id: expect.any(String),
        event_name: "personal_access_token_revoked",
        actor: { user_id: u.userId, ip_address: "192.0.2.11" },
        ...common,
        details: { custom_message: `Revoked personal access token with id ${t.id}` },
      },
    ]);
    const imp = await f.c.CreatePersonalAccessToken({ actor: admin, userId: u.userId, name: "imp", scopes: ["api"], impersonation: true });
    expect((await auditRecords(Number(imp.id))).map((r) => [r.event_name, (r.details as { custom_message: string }).custom_message])).toEqual([
      ["impersonation_token_created", `Created impersonation token with id ${imp.id}`],
    ]);
  });

  it("records authentication with a token only when its last_used_at is written (throttled)", async () => {
    const u = await f.user("authaudit");
    const t = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "use", scopes: ["api"] });
    await f.c.Authenticate({ token: t.token, ipAddress: "198.51.100.20" });
    await f.c.Authenticate({ token: t.token, ipAddress: "198.51.100.21" });
    const used = (await auditRecords(Number(t.id))).filter((r) => r.event_name === "authenticated_with_token");
    expect(used).toEqual([
      {
        event_id: expect.any(String),
        event_name: "authenticated_with_token",
        actor: { user_id: u.userId, ip_address: "198.51.100.20" },
        entity_type: "User",
        entity_id: u.userId,
        entity_path: "authaudit",
        target_type: "PersonalAccessToken",
        target_id: Number(t.id),
        target_details: "use",
        details: { custom_message: `Authenticated with personal access token with id ${t.id}` },
      },
    ]);
    // Once last_used_at is old enough again, the next use is recorded.
    await f.deps.prisma.personalAccessToken.update({ where: { id: Number(t.id) }, data: { lastUsedAt: new Date(Date.now() - 11 * 60_000) } });
    await f.c.Authenticate({ token: t.token, ipAddress: "198.51.100.22" });
    expect((await auditRecords(Number(t.id))).filter((r) => r.event_name === "authenticated_with_token")).toHaveLength(2);
  });

  it("records users' state changes made by administrators, not the refused or unchanged ones", async () => {
    const u = await f.user("stateaudit");
    const admin = { ...f.admin, ipAddress: "192.0.2.30" };
    await f.c.ChangeUserState({ actor: admin, id: u.userId, action: "block" });
    await f.c.ChangeUserState({ actor: admin, id: u.userId, action: "block" });
    await f.c.ChangeUserState({ actor: admin, id: u.userId, action: "unblock" });
    await f.c.ChangeUserState({ actor: admin, id: u.userId, action: "ban" });
    await f.c.ChangeUserState({ actor: admin, id: u.userId, action: "unban" });
    const rows = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.audit.event" }, orderBy: { id: "asc" } });
    const mine = rows.map((r) => r.payload as Record<string, unknown>).filter((p) => p.entity_id === u.userId && p.target_type === "User");
    expect(mine.map((p) => [p.event_name, (p.details as { custom_message: string }).custom_message])).toEqual([
      ["user_blocked", "Blocked user stateaudit"],
      ["user_unblocked", "Unblocked user stateaudit"],
      ["user_banned", "Banned user stateaudit"],
      ["user_unbanned", "Unbanned user stateaudit"],
    ]);
    expect(mine[0]).toMatchObject({
      actor: { user_id: f.admin.userId, ip_address: "192.0.2.30" },
      entity_type: "User",
      entity_path: "stateaudit",
      target_details: "stateaudit",
    });
  });

  it("records a group's path and name changes and its transfer", async () => {
    const owner = await f.user();
    const a = { ...owner, ipAddress: "192.0.2.40" };
    const top = await f.c.CreateGroup({ actor: a, name: "Dest", path: "audit-dest" });
    const g = await f.c.CreateGroup({ actor: a, name: "Moving", path: "audit-moving" });
    await f.c.UpdateGroup({ actor: a, idOrPath: String(g.id), path: "audit-moved", name: "Moved" });
    await f.c.TransferGroup({ actor: a, idOrPath: String(g.id), parentId: top.id });
    const rows = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.audit.event" }, orderBy: { id: "asc" } });
    const mine = rows.map((r) => r.payload as Record<string, unknown>).filter((p) => p.entity_type === "Group" && p.entity_id === Number(g.id));
    expect(mine.map((p) => [p.event_name, p.details, p.entity_path])).toEqual([
      ["group_path_updated", { change: "path", from: "audit-moving", to: "audit-moved" }, "audit-moved"],
      ["group_name_updated", { change: "name", from: "Moving", to: "Moved" }, "audit-moved"],
      ["group_parent_updated", { change: "parent group", from: "", to: "audit-dest" }, "audit-dest/audit-moved"],
    ]);
    expect(mine[0]).toMatchObject({ actor: { user_id: owner.userId, ip_address: "192.0.2.40" }, target_type: "Group" });
  });

  it("records a group service account's tokens created and revoked by the group's Owner", async () => {
    const owner = await f.user();
    const top = await f.c.CreateGroup({ actor: owner, name: "SA Audit", path: "sa-audit" });
    const sa = await f.c.CreateServiceAccount({ actor: owner, group: String(top.id), host: "quarry.test" });
    const a = { ...owner, ipAddress: "192.0.2.50" };
    const t = await f.c.CreateServiceAccountToken({ actor: a, group: "sa-audit", userId: sa.id, name: "bot", scopes: ["api"] });
    await f.c.RevokeServiceAccountToken({ actor: a, group: "sa-audit", userId: sa.id, tokenId: t.id });
    expect((await auditRecords(Number(t.id))).map((r) => [r.event_name, r.entity_id, r.actor])).toEqual([
      ["personal_access_token_created", Number(sa.id), { user_id: owner.userId, ip_address: "192.0.2.50" }],
      ["personal_access_token_revoked", Number(sa.id), { user_id: owner.userId, ip_address: "192.0.2.50" }],
    ]);
  });
});
