import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenDigest } from "./passwords.ts";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";
import { startTestDnsServer, type TestDnsServer } from "@quarry/testing";

let f: Fixture;
let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer();
  f = await identityFixture({ dnsServers: [dns.address] });
});
afterAll(async () => {
  await f?.close();
  await dns?.close();
});

async function ownedGroup(path: string) {
  const owner = await f.user(`${path}-owner`);
  const group = await f.c.CreateGroup({ actor: owner, name: path, path });
  return { owner, group, id: String(group.id) };
}

const userRow = (id: number) => f.deps.prisma.user.findUniqueOrThrow({ where: { id } });

describe("verified domains", () => {
  it("verifies a domain through its TXT record and claims the users of its confirmed primary e-mails", async () => {
    const { owner, group, id } = await ownedGroup("vd-acme");
    const before = await f.c.CreateUser({ actor: f.admin, username: "vd-alice", email: "Alice@Acme-Corp.example", name: "Alice", password: "password-123" });
    const unconfirmed = await f.c.CreateUser({ actor: f.admin, username: "vd-unconf", email: "unconf@acme-corp.example", name: "U", password: "password-123" });
    // Its primary e-mail awaits confirmation (token "vd-confirm-token").
    await f.deps.prisma.user.update({
      where: { id: Number(unconfirmed.id) },
      data: { confirmedAt: null, confirmationDigest: tokenDigest("vd-confirm-token") },
    });
    const elsewhere = await f.c.CreateUser({ actor: f.admin, username: "vd-bob", email: "bob@other.example", name: "Bob", password: "password-123" });

    const created = await f.c.CreateVerifiedDomain({ actor: owner, group: id, domain: "ACME-corp.example." });
    expect(created).toMatchObject({
      domain: "acme-corp.example",
      verified: false,
      verificationRecord: "_gitlab-pages-verification-code.acme-corp.example",
      verifiedAt: "",
      groupId: group.id,
    });
    expect(created.verificationCode).toMatch(/^[0-9a-f]{32}$/);

    // No record, then a wrong one: not verified, nobody claimed.
    const failed = await failure(f.c.VerifyVerifiedDomain({ actor: owner, group: id, domain: "acme-corp.example" }));
    expect(failed.status).toBe(400);
    expect(String(failed.body.message)).toContain("400 Bad request - Failed to verify domain ownership");
    dns.txt.set("_gitlab-pages-verification-code.acme-corp.example", ["gitlab-pages-verification-code=not-the-code"]);
    expect((await failure(f.c.VerifyVerifiedDomain({ actor: owner, group: id, domain: "acme-corp.example" }))).status).toBe(400);
    expect((await userRow(Number(before.id))).enterpriseGroupId).toBeNull();

    dns.txt.set("_gitlab-pages-verification-code.acme-corp.example", ["v=spf1 -all", `gitlab-pages-verification-code=${created.verificationCode}`]);
    const verified = await f.c.VerifyVerifiedDomain({ actor: owner, group: id, domain: "acme-corp.example" });
    expect(verified).toMatchObject({ verified: true, enterpriseUsersCount: 1 });
    expect(Date.parse(verified.verifiedAt)).not.toBeNaN();
    const alice = await userRow(Number(before.id));
    expect(alice.enterpriseGroupId).toBe(Number(group.id));
    expect(alice.enterpriseGroupAssociatedAt).toBeInstanceOf(Date);
    expect((await userRow(Number(unconfirmed.id))).enterpriseGroupId).toBeNull();
    expect((await userRow(Number(elsewhere.id))).enterpriseGroupId).toBeNull();

    // Confirming the primary e-mail later claims the user.
    await f.c.ConfirmEmail({ confirmationToken: "vd-confirm-token" });
    expect((await userRow(Number(unconfirmed.id))).enterpriseGroupId).toBe(Number(group.id));
    // Later users of the domain are claimed on creation; the read model says so.
    const later = await f.c.CreateUser({ actor: f.admin, username: "vd-carol", email: "carol@acme-corp.example", name: "Carol", password: "password-123" });
    expect(Number(later.enterpriseGroupId)).toBe(Number(group.id));
    expect(Date.parse(later.enterpriseGroupAssociatedAt)).not.toBeNaN();
    // A user given a primary e-mail on the domain is claimed too.
    const moved = await f.c.UpdateUser({ actor: f.admin, id: elsewhere.id, email: "bob@acme-corp.example" });
    expect(Number(moved.enterpriseGroupId)).toBe(Number(group.id));

    const list = await f.c.ListVerifiedDomains({ actor: owner, group: id });
    expect(list.domains.map((d) => [d.domain, d.verified, d.enterpriseUsersCount])).toEqual([["acme-corp.example", true, 4]]);

    // Removing the domain keeps its users claimed.
    await f.c.DeleteVerifiedDomain({ actor: owner, group: id, domain: "acme-corp.example" });
    expect((await f.c.ListVerifiedDomains({ actor: owner, group: id })).domains).toEqual([]);
    expect((await userRow(Number(before.id))).enterpriseGroupId).toBe(Number(group.id));
    expect(await failure(f.c.DeleteVerifiedDomain({ actor: owner, group: id, domain: "acme-corp.example" }))).toEqual({
      status: 404,
      body: { message: "404 Domain Not Found" },
    });
  });

  it("lets administrators add a domain verified, which claims at once; never service accounts", async () => {
    const { owner, group, id } = await ownedGroup("vd-admin");
    const dave = await f.c.CreateUser({ actor: f.admin, username: "vd-dave", email: "dave@admin-made.example", name: "Dave", password: "password-123" });
    const sa = await f.c.CreateServiceAccount({ actor: f.admin, group: "", name: "", username: "", email: "" });
    await f.deps.prisma.user.update({ where: { id: Number(sa.id) }, data: { email: "sa@admin-made.example" } });
    expect(await failure(f.c.CreateVerifiedDomain({ actor: owner, group: id, domain: "admin-made.example", verified: true }))).toMatchObject({ status: 403 });
    const made = await f.c.CreateVerifiedDomain({ actor: f.admin, group: id, domain: "admin-made.example", verified: true });
    expect(made).toMatchObject({ verified: true, enterpriseUsersCount: 1 });
    expect((await userRow(Number(dave.id))).enterpriseGroupId).toBe(Number(group.id));
    expect((await userRow(Number(sa.id))).enterpriseGroupId).toBeNull();
    // One group per domain on the instance.
    const other = await ownedGroup("vd-other");
    expect(await failure(f.c.CreateVerifiedDomain({ actor: other.owner, group: other.id, domain: "admin-made.example" }))).toEqual({
      status: 400,
      body: { message: { domain: ["has already been taken"] } },
    });
    // Verifying a verified domain is a no-op answer.
    expect((await f.c.VerifyVerifiedDomain({ actor: owner, group: id, domain: "admin-made.example" })).verified).toBe(true);
  });

  it("answers invalid domains, subgroups, non-owners and strangers as GitLab's group APIs do", async () => {
    const { owner, id } = await ownedGroup("vd-rules");
    const stranger = await f.user("vd-stranger");
    for (const domain of ["", "localhost", "-bad.example", "a..b", "1.2.3.4", "exa mple.com"]) {
      expect(await failure(f.c.CreateVerifiedDomain({ actor: owner, group: id, domain }))).toEqual({
        status: 400,
        body: { message: { domain: ["is invalid"] } },
      });
    }
    const sub = await f.c.CreateGroup({ actor: owner, name: "sub", path: "sub", parentId: Number(id) });
    expect(await failure(f.c.ListVerifiedDomains({ actor: owner, group: String(sub.id) }))).toEqual({
      status: 400,
      body: { message: "400 Bad request - Must be a top-level group" },
    });
    await f.c.AddMember({ actor: owner, source: { kind: "group", idOrPath: id }, userId: stranger.userId, accessLevel: 40 });
    expect(await failure(f.c.CreateVerifiedDomain({ actor: stranger, group: id, domain: "maint.example" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect(await failure(f.c.ListVerifiedDomains({ actor: f.anonymous, group: id }))).toMatchObject({ status: 401 });
    expect(await failure(f.c.ListVerifiedDomains({ actor: owner, group: "no-such-group" }))).toEqual({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await failure(f.c.VerifyVerifiedDomain({ actor: owner, group: id, domain: "never-added.example" }))).toEqual({
      status: 404,
      body: { message: "404 Domain Not Found" },
    });
  });
});
