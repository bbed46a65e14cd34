import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f?.close());

const notFound = { status: 404, body: { message: "404 Not found" } };

/** A top-level group with its Owner, and a verified domain claiming `<name>.example`. */
async function enterprise(name: string) {
  const owner = await f.user(`${name}-owner`);
  const group = await f.c.CreateGroup({ actor: owner, name, path: name });
  await f.c.CreateVerifiedDomain({ actor: f.admin, group: String(group.id), domain: `${name}.example`, verified: true });
  const member = async (username: string) => {
    const u = await f.c.CreateUser({ actor: f.admin, username, email: `${username}@${name}.example`, name: `Name ${username}`, password: "password-123" });
    return { userId: Number(u.id), isAdmin: false, username };
  };
  return { owner, group, id: String(group.id), member };
}

describe("enterprise users", () => {
  it("lists the group's enterprise users newest first, with GitLab's filters and paging", async () => {
    const e = await enterprise("eu-list");
    const ann = await e.member("eu-ann");
    const ben = await e.member("eu-ben");
    const cyd = await e.member("eu-cyd");
    await f.c.CreateUser({ actor: f.admin, username: "eu-outsider", email: "outsider@elsewhere.example", name: "Outsider", password: "password-123" });
    await f.c.ChangeUserState({ actor: f.admin, id: ben.userId, action: "block" });
    await f.deps.prisma.user.update({ where: { id: cyd.userId }, data: { twoFactorEnabled: true, createdAt: new Date("2020-01-01T00:00:00Z") } });
    const ids = async (q: Record<string, unknown> = {}) => (await f.c.ListEnterpriseUsers({ actor: e.owner, group: e.id, ...q })).users.map((u) => u.username);

    expect(await ids()).toEqual(["eu-cyd", "eu-ben", "eu-ann"]);
    const page = await f.c.ListEnterpriseUsers({ actor: e.owner, group: e.id, page: { page: 2, perPage: 2 } });
    expect(page.users.map((u) => u.username)).toEqual(["eu-ann"]);
    expect(page.pageInfo).toMatchObject({ total: 3, page: 2, perPage: 2 });
    expect(await ids({ username: "EU-ANN" })).toEqual(["eu-ann"]);
    expect(await ids({ search: "name eu-b" })).toEqual(["eu-ben"]);
    expect(await ids({ search: "cyd@eu-list.example" })).toEqual(["eu-cyd"]);
    expect(await ids({ search: "ANN" })).toEqual(["eu-ann"]);
    expect(await ids({ active: true })).toEqual(["eu-cyd", "eu-ann"]);
    expect(await ids({ blocked: true })).toEqual(["eu-ben"]);
    expect(await ids({ twoFactor: "enabled" })).toEqual(["eu-cyd"]);
    expect(await ids({ twoFactor: "disabled" })).toEqual(["eu-ben", "eu-ann"]);
    expect(await ids({ createdBefore: "2021-01-01T00:00:00Z" })).toEqual(["eu-cyd"]);
    expect(await ids({ createdAfter: "2021-01-01T00:00:00Z" })).toEqual(["eu-ben", "eu-ann"]);
    expect(await failure(f.c.ListEnterpriseUsers({ actor: e.owner, group: e.id, createdAfter: "yesterday" }))).toEqual({
      status: 400,
      body: { message: "created_after is invalid" },
    });

    const one = await f.c.GetEnterpriseUser({ actor: e.owner, group: e.id, userId: ann.userId });
    expect(one).toMatchObject({ username: "eu-ann", email: "eu-ann@eu-list.example", enterpriseGroupId: e.group.id });
    expect(Date.parse(one.enterpriseGroupAssociatedAt)).not.toBeNaN();
  });

  it("answers 401, 404, 400 and 403 as GitLab's enterprise users API", async () => {
    const e = await enterprise("eu-rules");
    const dev = await e.member("eu-dev");
    const other = await enterprise("eu-rival");
    const rival = await other.member("eu-rival-user");
    const stranger = await f.user("eu-stranger");
    const sub = await f.c.CreateGroup({ actor: e.owner, name: "sub", path: "sub", parentId: Number(e.id) });

    expect(await failure(f.c.ListEnterpriseUsers({ actor: f.anonymous, group: e.id }))).toMatchObject({ status: 401 });
    expect(await failure(f.c.ListEnterpriseUsers({ actor: e.owner, group: "eu-nope" }))).toEqual({ status: 404, body: { message: "404 Group Not Found" } });
    // A private group the caller cannot see is not found, before anything else.
    expect(await failure(f.c.ListEnterpriseUsers({ actor: stranger, group: e.id }))).toEqual({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await failure(f.c.ListEnterpriseUsers({ actor: e.owner, group: String(sub.id) }))).toEqual({
      status: 400,
      body: { message: "400 Bad request - Must be a top-level group" },
    });
    await f.c.AddMember({ actor: e.owner, source: { kind: "group", idOrPath: e.id }, userId: stranger.userId, accessLevel: 40 });
    // One call at a time: a refusal must not arrive while nothing awaits it (an unhandled rejection).
    for (const call of [
      () => f.c.ListEnterpriseUsers({ actor: stranger, group: e.id }),
      () => f.c.GetEnterpriseUser({ actor: stranger, group: e.id, userId: dev.userId }),
      () => f.c.DeleteEnterpriseUser({ actor: stranger, group: e.id, userId: dev.userId }),
      () => f.c.DisableEnterpriseUserTwoFactor({ actor: stranger, group: e.id, userId: dev.userId }),
    ]) {
      expect(await failure(call())).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    }
    // Another group's enterprise user, a plain user, nobody: not found.
    for (const userId of [rival.userId, stranger.userId, 999_999]) {
      expect(await failure(f.c.GetEnterpriseUser({ actor: e.owner, group: e.id, userId }))).toEqual(notFound);
      expect(await failure(f.c.DeleteEnterpriseUser({ actor: e.owner, group: e.id, userId }))).toEqual(notFound);
      expect(await failure(f.c.DisableEnterpriseUserTwoFactor({ actor: e.owner, group: e.id, userId }))).toEqual(notFound);
    }
    // Administrators have the Owner's access.
    expect((await f.c.GetEnterpriseUser({ actor: f.admin, group: e.id, userId: dev.userId })).username).toBe("eu-dev");
  });

  it("disables an enterprise user's two-factor authentication, 400 when it is off", async () => {
    const e = await enterprise("eu-otp");
    const u = await e.member("eu-otp-user");
    const { secret } = await f.c.StartTwoFactor({ actor: u, issuer: "h" });
    await f.c.VerifyTwoFactor({ actor: u, otpCode: TOTP.generate({ secret: Secret.fromBase32(secret) }) });
    await f.c.DisableEnterpriseUserTwoFactor({ actor: e.owner, group: e.id, userId: u.userId });
    const row = await f.deps.prisma.user.findUniqueOrThrow({ where: { id: u.userId } });
    expect(row).toMatchObject({ twoFactorEnabled: false, otpSecret: null, otpSecretSealed: null, otpBackupCodes: [] });
    expect(await failure(f.c.DisableEnterpriseUserTwoFactor({ actor: e.owner, group: e.id, userId: u.userId }))).toEqual({
      status: 400,
      body: { message: "400 Bad request - Two-factor authentication is not enabled for this user" },
    });
  });

  it("deletes an enterprise user; the sole Owner of a group only with hard_delete, which deletes that group", async () => {
    const e = await enterprise("eu-del");
    const plain = await e.member("eu-del-plain");
    const boss = await e.member("eu-del-boss");
    const shared = await e.member("eu-del-shared");
    const own = await f.c.CreateGroup({ actor: boss, name: "boss-group", path: "eu-boss-group" });
    const ownSub = await f.c.CreateGroup({ actor: boss, name: "inner", path: "inner", parentId: Number(own.id) });
    const project = await f.c.CreateProject({ actor: boss, name: "p", path: "p", namespaceId: Number(own.id) });
    const both = await f.c.CreateGroup({ actor: shared, name: "shared-group", path: "eu-shared-group" });
    await f.c.AddMember({ actor: shared, source: { kind: "group", idOrPath: String(both.id) }, userId: e.owner.userId, accessLevel: 50 });

    await f.c.DeleteEnterpriseUser({ actor: e.owner, group: e.id, userId: plain.userId });
    expect(await f.deps.prisma.user.findUnique({ where: { id: plain.userId } })).toBeNull();

    expect(await failure(f.c.DeleteEnterpriseUser({ actor: e.owner, group: e.id, userId: boss.userId }))).toEqual({
      status: 409,
      body: { message: "Can not remove a user who is the sole owner of a group." },
    });
    expect(await f.deps.prisma.user.findUnique({ where: { id: boss.userId } })).not.toBeNull();
    await f.c.DeleteEnterpriseUser({ actor: e.owner, group: e.id, userId: boss.userId, hardDelete: true });
    expect(await f.deps.prisma.user.findUnique({ where: { id: boss.userId } })).toBeNull();
    expect(await f.deps.prisma.namespace.findMany({ where: { id: { in: [Number(own.id), Number(ownSub.id)] } } })).toEqual([]);
    expect(await f.deps.prisma.project.findUnique({ where: { id: Number(project.id) } })).toBeNull();

    // A group with another Owner is no conflict, and stays.
    await f.c.DeleteEnterpriseUser({ actor: e.owner, group: e.id, userId: shared.userId });
    expect(await f.deps.prisma.namespace.findUnique({ where: { id: Number(both.id) } })).not.toBeNull();
    expect((await f.c.ListEnterpriseUsers({ actor: e.owner, group: e.id })).users).toEqual([]);
  });

  it("claims a user an administrator provisions for a top-level group, and shows it in the user", async () => {
    const e = await enterprise("eu-prov");
    const u = await f.user("eu-prov-user");
    const sub = await f.c.CreateGroup({ actor: e.owner, name: "sub", path: "sub", parentId: Number(e.id) });
    expect(await failure(f.c.UpdateUser({ actor: f.admin, id: u.userId, provisionedByGroupId: Number(sub.id) }))).toEqual({
      status: 400,
      body: { message: { provisioned_by_group_id: ["must be a top-level group"] } },
    });
    expect(await failure(f.c.UpdateUser({ actor: f.admin, id: u.userId, provisionedByGroupId: 999_999 }))).toEqual({
      status: 404,
      body: { message: "404 Group Not Found" },
    });
    const updated = await f.c.UpdateUser({ actor: f.admin, id: u.userId, provisionedByGroupId: Number(e.id) });
    expect(updated).toMatchObject({ provisionedByGroupId: e.group.id, enterpriseGroupId: e.group.id });
    expect((await f.c.ListEnterpriseUsers({ actor: e.owner, group: e.id })).users.map((x) => x.username)).toEqual(["eu-prov-user"]);
    // Claimed by one group, it cannot be provisioned by another.
    const other = await enterprise("eu-prov2");
    expect(await failure(f.c.UpdateUser({ actor: f.admin, id: u.userId, provisionedByGroupId: Number(other.id) }))).toMatchObject({ status: 400 });
    // A deleted group releases its enterprise users.
    await f.c.DeleteGroup({ actor: e.owner, idOrPath: e.id });
    expect((await f.deps.prisma.user.findUniqueOrThrow({ where: { id: u.userId } })).enterpriseGroupId).toBeNull();
  });
});
