import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f?.close());

/** The quarry.access.changed payloads enqueued by `write`, in order (the outbox keeps published rows for a day). */
async function changes(write: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const last = await f.deps.prisma.outboxEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  await write();
  const rows = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.access.changed", id: { gt: last?.id ?? 0n } }, orderBy: { id: "asc" } });
  return rows.map((r) => {
    const { event_id, ...rest } = r.payload as Record<string, unknown>;
    expect(event_id).toEqual(expect.any(String));
    return rest;
  });
}

describe("quarry.access.changed", () => {
  it("goes out with every change that can alter an Authorize answer, naming what changed", async () => {
    const owner = await f.user();
    const other = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "Access", path: `access-${Date.now().toString(36)}`, visibility: "public" });
    const target = await f.c.CreateGroup({ actor: owner, name: "Target", path: `target-${Date.now().toString(36)}`, visibility: "public" });
    const p = await f.c.CreateProject({ actor: owner, name: "ac", namespaceId: g.id });
    const pid = Number(p.id);
    const gid = Number(g.id);
    const project = { kind: "project", idOrPath: String(pid) };
    const group = { kind: "group", idOrPath: String(gid) };
    const ev = (o: Record<string, unknown>) => [{ event_name: "access_changed", ...o }];

    expect(await changes(() => f.c.UpdateProject({ actor: owner, idOrPath: String(pid), visibility: "internal" }))).toEqual(ev({ project_ids: [pid] }));
    expect(await changes(() => f.c.UpdateProject({ actor: owner, idOrPath: String(pid), description: "d" }))).toEqual(ev({ project_ids: [pid] }));
    expect(await changes(() => f.c.StarProject({ actor: other, idOrPath: String(pid) }))).toEqual(ev({ project_ids: [pid] }));
    expect(await changes(() => f.c.AddMember({ actor: owner, source: project, userId: other.userId, accessLevel: 30 }))).toEqual(
      ev({ user_ids: [other.userId] }),
    );
    expect(await changes(() => f.c.UpdateMember({ actor: owner, source: project, userId: other.userId, accessLevel: 20 }))).toEqual(
      ev({ user_ids: [other.userId] }),
    );
    expect(await changes(() => f.c.RemoveMember({ actor: owner, source: project, userId: other.userId }))).toEqual(ev({ user_ids: [other.userId] }));
    expect(await changes(() => f.c.AddMember({ actor: owner, source: group, userId: other.userId, accessLevel: 30 }))).toEqual(
      ev({ user_ids: [other.userId] }),
    );
    expect(await changes(() => f.c.RemoveMember({ actor: owner, source: group, userId: other.userId }))).toEqual(ev({ user_ids: [other.userId] }));
    expect(await changes(() => f.c.UpdateGroup({ actor: owner, idOrPath: String(gid), visibility: "internal" }))).toEqual(ev({ namespace_ids: [gid] }));
    expect(await changes(() => f.c.TransferGroup({ actor: owner, idOrPath: String(gid), parentId: target.id }))).toEqual(ev({ namespace_ids: [gid] }));
    expect(await changes(() => f.c.TransferProject({ actor: owner, idOrPath: String(pid), namespace: String(target.id) }))).toEqual(ev({ project_ids: [pid] }));
    expect(await changes(() => f.c.ChangeUserState({ actor: f.admin, id: other.userId, action: "block" }))).toEqual(ev({ user_ids: [other.userId] }));
    expect(await changes(() => f.c.UpdateUser({ actor: f.admin, id: other.userId, admin: true }))).toEqual(ev({ user_ids: [other.userId] }));
    expect(await changes(() => f.c.DeleteProject({ actor: owner, idOrPath: String(pid) }))).toEqual(ev({ project_ids: [pid] }));
    const q = await f.c.CreateProject({ actor: owner, name: "gone", namespaceId: g.id });
    expect(await changes(() => f.c.DeleteGroup({ actor: owner, idOrPath: String(gid) }))).toEqual(ev({ namespace_ids: [gid], project_ids: [Number(q.id)] }));
    expect(await changes(() => f.c.DeleteUser({ actor: f.admin, id: other.userId }))).toEqual(ev({ user_ids: [other.userId] }));
  });

  it("goes out with the other writes to a user's row that GetUser shows: two-factor, e-mail confirmation, service accounts", async () => {
    const u = await f.user();
    const ev = [{ event_name: "access_changed", user_ids: [u.userId] }];
    const start = await f.c.StartTwoFactor({ actor: u, issuer: "x" });
    const code = (t: number) => TOTP.generate({ secret: Secret.fromBase32(start.secret), timestamp: t });
    expect(await changes(() => f.c.VerifyTwoFactor({ actor: u, otpCode: code(Date.now() - 30_000) }))).toEqual(ev);
    expect(await changes(() => f.c.DisableOwnTwoFactor({ actor: u, otpCode: code(Date.now()) }))).toEqual(ev);

    const sa = await f.c.CreateServiceAccount({ actor: f.admin, host: "quarry.test" });
    const saEv = [{ event_name: "access_changed", user_ids: [Number(sa.id)] }];
    const mail = `sa-${Date.now().toString(36)}@example.com`;
    expect(await changes(() => f.c.UpdateServiceAccount({ actor: f.admin, userId: sa.id, email: mail }))).toEqual(saEv);
    const rows = await f.deps.prisma.$queryRawUnsafe<{ payload: { email: string; confirmation_token: string } }[]>(
      `SELECT payload FROM outbox_events WHERE subject = 'quarry.mail.email_confirmation' ORDER BY id DESC`,
    );
    const token = rows.find((r) => r.payload.email === mail)!.payload.confirmation_token;
    expect(await changes(() => f.c.ConfirmEmail({ confirmationToken: token }))).toEqual(saEv);
  });
});
