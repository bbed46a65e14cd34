import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f?.close());

const outboxPayloads = async (subject: string) =>
  (
    await f.deps.prisma.$queryRawUnsafe<{ payload: Record<string, unknown> }[]>(`SELECT payload FROM outbox_events WHERE subject = $1 ORDER BY id`, subject)
  ).map((r) => r.payload);

describe("instance service accounts", () => {
  it("creates with GitLab's defaults, lists, orders and updates (administrators only)", async () => {
    const a = await f.c.CreateServiceAccount({ actor: f.admin, host: "quarry.test" });
    expect(a.name).toBe("Service account user");
    expect(a.username).toMatch(/^service_account_[0-9a-f]{32}$/);
    expect(a.email).toBe(`${a.username}@noreply.quarry.test`);
    expect(a.unconfirmedEmail).toBe("");
    const row = await f.deps.prisma.user.findUniqueOrThrow({ where: { id: Number(a.id) } });
    expect(row).toMatchObject({ bot: true, userType: "service_account", external: true, provisionedByGroupId: null });
    expect(row.confirmedAt).not.toBeNull();
    const b = await f.c.CreateServiceAccount({ actor: f.admin, name: "Deployer", username: "aaa-deployer", email: "Deployer@Example.com" });
    expect(b).toMatchObject({ name: "Deployer", username: "aaa-deployer", email: "deployer@example.com" });
    // A custom e-mail awaits confirmation: a confirmation mail is queued with a token whose digest is kept.
    const custom = await f.deps.prisma.user.findUniqueOrThrow({ where: { id: Number(b.id) } });
    expect(custom.confirmedAt).toBeNull();
    expect(custom.confirmationDigest).toMatch(/^[0-9a-f]{64}$/);
    expect((await outboxPayloads("quarry.mail.email_confirmation")).map((p) => p.email)).toContain("deployer@example.com");

    expect(await failure(f.c.CreateServiceAccount({ actor: f.admin, email: "deployer@example.com" }))).toEqual({
      status: 400,
      body: { message: "400 Bad request - Email has already been taken" },
    });
    expect(await failure(f.c.CreateServiceAccount({ actor: f.admin, email: "admin@example.com" }))).toMatchObject({ status: 400 });
    const u = await f.user("plain");
    expect(await failure(f.c.CreateServiceAccount({ actor: u }))).toMatchObject({ status: 403 });
    expect(await failure(f.c.ListServiceAccounts({ actor: u }))).toMatchObject({ status: 403 });

    const byId = await f.c.ListServiceAccounts({ actor: f.admin });
    expect(byId.accounts.map((x) => Number(x.id))).toEqual([Number(b.id), Number(a.id)]);
    const byName = await f.c.ListServiceAccounts({ actor: f.admin, orderBy: "username", sort: "asc" });
    expect(byName.accounts.map((x) => x.username)).toEqual(["aaa-deployer", a.username]);
    // Not humans.
    const humans = await f.c.ListUsers({ actor: f.admin, humans: true });
    expect(humans.users.map((x) => x.username)).not.toContain("aaa-deployer");

    const renamed = await f.c.UpdateServiceAccount({ actor: f.admin, userId: a.id, name: "Renamed", username: "sa-renamed", email: "sa-new@example.com" });
    expect(renamed).toMatchObject({ name: "Renamed", username: "sa-renamed", email: a.email, unconfirmedEmail: "sa-new@example.com" });
    expect(await failure(f.c.UpdateServiceAccount({ actor: f.admin, userId: u.userId, name: "x" }))).toMatchObject({ status: 404 });
    expect(await failure(f.c.UpdateServiceAccount({ actor: f.admin, userId: a.id, email: "deployer@example.com" }))).toMatchObject({ status: 400 });
  });
});

describe("group service accounts", () => {
  it("are created by Owners of top-level groups, listed, updated and deleted, with their tokens", async () => {
    const owner = await f.user("gowner");
    const dev = await f.user("gdev");
    const top = await f.c.CreateGroup({ actor: owner, name: "SA Top", path: "sa-top", visibility: "private" });
    const sub = await f.c.CreateGroup({ actor: owner, name: "SA Sub", path: "sa-sub", parentId: top.id, visibility: "private" });
    await f.c.AddMember({ actor: owner, source: { kind: "group", idOrPath: String(top.id) }, userId: dev.userId, accessLevel: 30 });

    const sa = await f.c.CreateServiceAccount({ actor: owner, group: String(top.id), host: "quarry.test" });
    expect(sa.username).toMatch(new RegExp(`^service_account_group_${top.id}_[0-9a-f]{32}$`));
    expect(sa.email).toBe(`${sa.username}@noreply.quarry.test`);
    expect(Number(sa.provisionedByGroupId)).toBe(Number(top.id));
    expect(await failure(f.c.CreateServiceAccount({ actor: owner, group: String(sub.id) }))).toEqual({
      status: 400,
      body: { message: "400 Bad request - Group must be a top-level group" },
    });
    expect(await failure(f.c.CreateServiceAccount({ actor: dev, group: "sa-top" }))).toMatchObject({ status: 403 });
    expect(await failure(f.c.CreateServiceAccount({ actor: await f.user("outsider"), group: "sa-top" }))).toMatchObject({ status: 404 });
    const list = await f.c.ListServiceAccounts({ actor: owner, group: "sa-top" });
    expect(list.accounts.map((x) => x.username)).toEqual([sa.username]);
    // Instance lists leave group accounts out.
    expect((await f.c.ListServiceAccounts({ actor: f.admin })).accounts.map((x) => x.username)).not.toContain(sa.username);

    const t1 = await f.c.CreateServiceAccountToken({ actor: owner, group: "sa-top", userId: sa.id, name: "beta", scopes: ["api"] });
    expect(t1.token).toMatch(/^glpat-/);
    const max = new Date(Date.parse(new Date().toISOString().slice(0, 10)) + 365 * 86_400_000).toISOString().slice(0, 10);
    expect(t1.expiresAt).toBe(max);
    const t2 = await f.c.CreateServiceAccountToken({
      actor: owner,
      group: "sa-top",
      userId: sa.id,
      name: "alpha",
      scopes: ["read_api"],
      expiresAt: "2099-01-01",
    });
    expect(t2.expiresAt).toBe("2099-01-01");
    // The token authenticates as the bot.
    const auth = await f.c.Authenticate({ token: t1.token });
    expect(auth.user?.username).toBe(sa.username);
    expect(auth.user?.bot).toBe(true);

    const names = async (extra: Record<string, unknown>) =>
      (await f.c.ListServiceAccountTokens({ actor: owner, group: "sa-top", userId: sa.id, ...extra })).tokens.map((t) => t.name);
    expect(await names({})).toEqual(["alpha", "beta"]);
    expect(await names({ sort: "name_asc" })).toEqual(["alpha", "beta"]);
    expect(await names({ sort: "created_asc" })).toEqual(["beta", "alpha"]);
    expect(await names({ sort: "expires_desc" })).toEqual(["beta", "alpha"].reverse());
    expect(await names({ sort: "expires_asc" })).toEqual(["beta", "alpha"]);
    expect(await names({ search: "ALP" })).toEqual(["alpha"]);
    expect(await names({ expiresAfter: "2098-01-01" })).toEqual(["alpha"]);
    expect(await names({ expiresBefore: "2098-01-01" })).toEqual(["beta"]);
    expect(await names({ createdAfter: "2000-01-01T00:00:00Z", createdBefore: "2999-01-01T00:00:00Z" })).toHaveLength(2);
    expect(await names({ lastUsedAfter: "2000-01-01T00:00:00Z" })).toEqual(["beta"]);
    expect(await names({ lastUsedBefore: "2000-01-01T00:00:00Z" })).toEqual([]);
    expect(await names({ sort: "last_used_desc" })).toEqual(["beta", "alpha"]);
    expect(await failure(f.c.ListServiceAccountTokens({ actor: owner, group: "sa-top", userId: sa.id, sort: "nope" }))).toMatchObject({ status: 400 });
    expect(await failure(f.c.ListServiceAccountTokens({ actor: dev, group: "sa-top", userId: sa.id }))).toMatchObject({ status: 403 });

    await f.c.RevokeServiceAccountToken({ actor: owner, group: "sa-top", userId: sa.id, tokenId: t1.id });
    expect(await names({ revoked: true })).toEqual(["beta"]);
    expect(await names({ state: "active" })).toEqual(["alpha"]);
    expect(await names({ state: "inactive" })).toEqual(["beta"]);
    expect(await failure(f.c.RevokeServiceAccountToken({ actor: owner, group: "sa-top", userId: sa.id, tokenId: t1.id }))).toMatchObject({ status: 400 });
    expect(await failure(f.c.RevokeServiceAccountToken({ actor: owner, group: "sa-top", userId: sa.id, tokenId: 999999 }))).toMatchObject({ status: 404 });
    expect(await failure(f.c.Authenticate({ token: t1.token }))).toMatchObject({ status: 401 });

    const upd = await f.c.UpdateServiceAccount({ actor: owner, group: "sa-top", userId: sa.id, name: "Bot" });
    expect(upd.name).toBe("Bot");
    // Another group's Owner cannot reach it through their group.
    const other = await f.c.CreateGroup({ actor: owner, name: "SA Other", path: "sa-other" });
    expect(await failure(f.c.UpdateServiceAccount({ actor: owner, group: String(other.id), userId: sa.id, name: "x" }))).toMatchObject({ status: 404 });

    await f.c.DeleteServiceAccount({ actor: owner, group: "sa-top", userId: sa.id, hardDelete: true });
    expect(await f.deps.prisma.user.findUnique({ where: { id: Number(sa.id) } })).toBeNull();
    expect(await failure(f.c.Authenticate({ token: t2.token }))).toMatchObject({ status: 401 });
    expect(await failure(f.c.DeleteServiceAccount({ actor: owner, group: "sa-top", userId: sa.id }))).toMatchObject({ status: 404 });
  });
});
