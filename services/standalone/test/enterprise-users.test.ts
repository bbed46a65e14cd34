// Group enterprise users end to end (GitLab's /groups/:id/enterprise_users, document 3) with the way
// Quarry makes them: a verified domain of a top-level group (Quarry's /groups/:id/verified_domains),
// proven by a TXT record that a real DNS server (@quarry/testing's startTestDnsServer) serves to the stack's resolver.
// Plain fetch with exact statuses and bodies; @gitbeaker/rest for the administrator user view.
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDnsServer, type TestDnsServer } from "@quarry/testing";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let dns: TestDnsServer;
const { post, put } = jsonRequests(() => s);
const get = (path: string, token?: string | null) => s.api(path, { token });
const patch = (path: string, token?: string | null) => s.api(path, { method: "PATCH", token });
const del = (path: string, token?: string | null) => s.api(path, { method: "DELETE", token });
const codeOf = (secret: string, timestamp = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp });

beforeAll(async () => {
  dns = await startTestDnsServer();
  s = await startTestStack(undefined, { dnsServers: [dns.address] });
}, 120_000);
afterAll(async () => {
  await s?.destroy();
  await dns?.close();
});

/** A top-level group with its Owner. */
async function ownedGroup(path: string) {
  const owner = await createUserWithToken(s);
  const group = await jsonBody(await post("/groups", { name: path, path }, owner.token), 201);
  return { owner, group, base: `/groups/${group.id}` };
}

const usernames = async (path: string, token: string) => ((await jsonBody(await get(path, token), 200)) as { username: string }[]).map((u) => u.username);

describe("verified domains and enterprise users", () => {
  it("claims the users of a domain verified by its TXT record; lists, reads and filters them as GitLab", async () => {
    const { owner, group, base } = await ownedGroup(`ent-${Date.now().toString(36)}`);
    const domain = `${group.path}.example`;
    const early = await createUserWithToken(s, ["api"], { email: `early@${domain}`, name: "Early Bird" });
    const outsider = await createUserWithToken(s, ["api"], { email: `outsider@not-${domain}` });

    // Quarry's extension: add, see the record to publish, fail to verify without it, verify with it.
    const added = await jsonBody(await post(`${base}/verified_domains`, { domain: domain.toUpperCase() }, owner.token), 201);
    expect(added).toEqual({
      domain,
      group_id: group.id,
      verified: false,
      verified_at: null,
      verification_code: expect.stringMatching(/^[0-9a-f]{32}$/),
      verification_record: `_gitlab-pages-verification-code.${domain}`,
      enterprise_users_count: 0,
      created_at: expect.any(String),
    });
    const failed = await jsonBody(await post(`${base}/verified_domains/${domain}/verify`, {}, owner.token), 400);
    expect(failed.message).toContain("400 Bad request - Failed to verify domain ownership");
    expect(await jsonBody(await get(`${base}/enterprise_users`, owner.token), 200)).toEqual([]);
    dns.txt.set(`_gitlab-pages-verification-code.${domain}`, [`gitlab-pages-verification-code=${added.verification_code}`]);
    const verified = await jsonBody(await post(`${base}/verified_domains/${domain}/verify`, {}, owner.token), 200);
    expect(verified).toMatchObject({ verified: true, verified_at: expect.any(String), enterprise_users_count: 1 });
    expect(await jsonBody(await get(`${base}/verified_domains`, owner.token), 200)).toEqual([verified]);

    // Users created later on the domain are claimed too.
    const late = await createUserWithToken(s, ["api"], { email: `late@${domain}`, name: "Late Comer" });
    const blocked = await createUserWithToken(s, ["api"], { email: `blocked@${domain}` });
    await jsonBody(await post(`/users/${blocked.id}/block`, {}), 201);

    const listRes = await get(`${base}/enterprise_users?per_page=2`, owner.token);
    const page1 = await jsonBody(listRes, 200);
    expect(page1.map((u: { username: string }) => u.username)).toEqual([blocked.username, late.username]);
    expect(listRes.headers.get("x-total")).toBe("3");
    expect(listRes.headers.get("x-next-page")).toBe("2");
    expect(await usernames(`${base}/enterprise_users?page=2&per_page=2`, owner.token)).toEqual([early.username]);
    expect(await usernames(`${base}/enterprise_users?username=${early.username.toUpperCase()}`, owner.token)).toEqual([early.username]);
    expect(await usernames(`${base}/enterprise_users?search=late%20comer`, owner.token)).toEqual([late.username]);
    expect(await usernames(`${base}/enterprise_users?search=early@${domain}`, owner.token)).toEqual([early.username]);
    expect(await usernames(`${base}/enterprise_users?active=true`, owner.token)).toEqual([late.username, early.username]);
    expect(await usernames(`${base}/enterprise_users?blocked=true`, owner.token)).toEqual([blocked.username]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await usernames(`${base}/enterprise_users?created_after=${future}`, owner.token)).toEqual([]);
    expect(await usernames(`${base}/enterprise_users?created_before=${future}&per_page=100`, owner.token)).toHaveLength(3);
    expect(await usernames(`${base}/enterprise_users?two_factor=enabled`, owner.token)).toEqual([]);
    expect(await usernames(`${base}/enterprise_users?two_factor=disabled`, owner.token)).toHaveLength(3);
    expect(await jsonBody(await get(`${base}/enterprise_users?created_after=yesterday`, owner.token), 400)).toEqual({
      error: "created_after does not have a valid value",
    });

    const one = await jsonBody(await get(`${base}/enterprise_users/${early.id}`, owner.token), 200);
    expect(one).toMatchObject({
      id: early.id,
      username: early.username,
      name: "Early Bird",
      state: "active",
      email: `early@${domain}`,
      is_admin: false,
      two_factor_enabled: false,
      identities: [],
      scim_identities: [],
      enterprise_group_id: group.id,
      enterprise_group_associated_at: expect.any(String),
      provisioned_by_group_id: null,
      created_by: expect.objectContaining({ username: "root" }),
    });
    for (const field of [
      "created_at",
      "confirmed_at",
      "last_sign_in_at",
      "theme_id",
      "projects_limit",
      "can_create_group",
      "external",
      "commit_email",
      "namespace_id",
    ]) {
      expect(one, field).toHaveProperty(field);
    }
    expect(await jsonBody(await get(`${base}/enterprise_users/${outsider.id}`, owner.token), 404)).toEqual({ message: "404 Not found" });
    // An identity of provider "scim" is a SCIM identity of the enterprise group.
    await jsonBody(await put(`/users/${early.id}`, { provider: "scim", extern_uid: "scim-early-1" }), 200);
    const withScim = await jsonBody(await get(`${base}/enterprise_users/${early.id}`, owner.token), 200);
    expect(withScim.scim_identities).toEqual([{ extern_uid: "scim-early-1", group_id: group.id, active: true }]);
    expect(withScim.identities).toEqual([{ provider: "scim", extern_uid: "scim-early-1", saml_provider_id: null }]);

    // The administrator's user view shows GitLab EE's fields (read here with @gitbeaker/rest).
    const shown = (await s.gitlab().Users.show(late.id)) as unknown as Record<string, unknown>;
    expect(shown).toMatchObject({ enterprise_group_id: group.id, provisioned_by_group_id: null });
    expect(typeof shown.enterprise_group_associated_at).toBe("string");
    expect((await jsonBody(await get(`/users/${outsider.id}`), 200)).enterprise_group_id).toBeNull();
  });

  it("answers 401, 404, 400 and 403 as GitLab's enterprise users API", async () => {
    const { owner, group, base } = await ownedGroup(`entrules-${Date.now().toString(36)}`);
    const maintainer = await createUserWithToken(s);
    const stranger = await createUserWithToken(s);
    await jsonBody(await post(`${base}/members`, { user_id: maintainer.id, access_level: 40 }, owner.token), 201);
    await jsonBody(await post(`${base}/verified_domains`, { domain: `${group.path}.example`, verified: true }), 201);
    const member = await createUserWithToken(s, ["api"], { email: `m@${group.path}.example` });
    const sub = await jsonBody(await post("/groups", { name: "sub", path: "sub", parent_id: group.id }, owner.token), 201);

    expect(await jsonBody(await get(`${base}/enterprise_users`, null), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await get("/groups/999999/enterprise_users", owner.token), 404)).toEqual({ message: "404 Group Not Found" });
    expect(await jsonBody(await get(`${base}/enterprise_users`, stranger.token), 404)).toEqual({ message: "404 Group Not Found" });
    expect(await jsonBody(await get(`/groups/${sub.id}/enterprise_users`, owner.token), 400)).toEqual({
      message: "400 Bad request - Must be a top-level group",
    });
    expect(await jsonBody(await get(`/groups/${encodeURIComponent(sub.full_path)}/enterprise_users/${member.id}`, owner.token), 400)).toEqual({
      message: "400 Bad request - Must be a top-level group",
    });
    const forbidden = { message: "403 Forbidden" };
    expect(await jsonBody(await get(`${base}/enterprise_users`, maintainer.token), 403)).toEqual(forbidden);
    expect(await jsonBody(await get(`${base}/enterprise_users/${member.id}`, maintainer.token), 403)).toEqual(forbidden);
    expect(await jsonBody(await del(`${base}/enterprise_users/${member.id}`, maintainer.token), 403)).toEqual(forbidden);
    expect(await jsonBody(await patch(`${base}/enterprise_users/${member.id}/disable_two_factor`, maintainer.token), 403)).toEqual(forbidden);
    expect(await jsonBody(await post(`${base}/verified_domains`, { domain: "x.example" }, maintainer.token), 403)).toEqual(forbidden);
    // Only administrators add a domain already verified.
    expect(await jsonBody(await post(`${base}/verified_domains`, { domain: "x.example", verified: true }, owner.token), 403)).toEqual({
      message: "403 Forbidden - only administrators may add a verified domain",
    });
    expect(await jsonBody(await post(`${base}/verified_domains`, { domain: "not a domain" }, owner.token), 400)).toEqual({
      message: { domain: ["is invalid"] },
    });
    expect(await jsonBody(await post(`${base}/verified_domains`, {}, owner.token), 400)).toEqual({ error: "domain is missing" });
    const notFound = { message: "404 Not found" };
    expect(await jsonBody(await get(`${base}/enterprise_users/${stranger.id}`, owner.token), 404)).toEqual(notFound);
    expect(await jsonBody(await get(`${base}/enterprise_users/999999`, owner.token), 404)).toEqual(notFound);
    expect(await jsonBody(await del(`${base}/enterprise_users/${stranger.id}`, owner.token), 404)).toEqual(notFound);
    expect(await jsonBody(await patch(`${base}/enterprise_users/${stranger.id}/disable_two_factor`, owner.token), 404)).toEqual(notFound);
    expect(await jsonBody(await del(`${base}/verified_domains/nope.example`, owner.token), 404)).toEqual({ message: "404 Domain Not Found" });
    // The group's path works as well as its id.
    expect(await usernames(`/groups/${group.path}/enterprise_users`, owner.token)).toEqual([member.username]);
    // Removing the domain keeps its users claimed.
    await jsonBody(await del(`${base}/verified_domains/${group.path}.example`, owner.token), 204);
    expect(await usernames(`${base}/enterprise_users`, owner.token)).toEqual([member.username]);
  });

  it("disables an enterprise user's two-factor authentication (204, then 400)", async () => {
    const { owner, group, base } = await ownedGroup(`entotp-${Date.now().toString(36)}`);
    await jsonBody(await post(`${base}/verified_domains`, { domain: `${group.path}.example`, verified: true }), 201);
    const u = await createUserWithToken(s, ["api"], { email: `otp@${group.path}.example` });
    const { secret } = await jsonBody(await post("/user/two_factor", {}, u.token), 201);
    await jsonBody(await post("/user/two_factor/verify", { otp_code: codeOf(secret) }, u.token), 201);
    expect(await usernames(`${base}/enterprise_users?two_factor=enabled`, owner.token)).toEqual([u.username]);
    await jsonBody(await patch(`${base}/enterprise_users/${u.id}/disable_two_factor`, owner.token), 204);
    expect((await jsonBody(await get(`${base}/enterprise_users/${u.id}`, owner.token), 200)).two_factor_enabled).toBe(false);
    expect(await jsonBody(await patch(`${base}/enterprise_users/${u.id}/disable_two_factor`, owner.token), 400)).toEqual({
      message: "400 Bad request - Two-factor authentication is not enabled for this user",
    });
  });

  it("deletes enterprise users: 409 for a group's sole Owner, hard_delete removes that group too", async () => {
    const { owner, group, base } = await ownedGroup(`entdel-${Date.now().toString(36)}`);
    await jsonBody(await post(`${base}/verified_domains`, { domain: `${group.path}.example`, verified: true }), 201);
    const plain = await createUserWithToken(s, ["api"], { email: `plain@${group.path}.example` });
    const boss = await createUserWithToken(s, ["api"], { email: `boss@${group.path}.example` });
    const bossGroup = await jsonBody(await post("/groups", { name: `${group.path}-boss`, path: `${group.path}-boss` }, boss.token), 201);
    await jsonBody(await post("/projects", { name: "work", namespace_id: bossGroup.id }, boss.token), 201);

    await jsonBody(await del(`${base}/enterprise_users/${plain.id}`, owner.token), 204);
    expect((await get(`/users/${plain.id}`)).status).toBe(404);
    expect((await get("/user", plain.token)).status).toBe(401);

    expect(await jsonBody(await del(`${base}/enterprise_users/${boss.id}`, owner.token), 409)).toEqual({
      message: "Can not remove a user who is the sole owner of a group.",
    });
    expect((await get(`/users/${boss.id}`)).status).toBe(200);
    await jsonBody(await s.api(`${base}/enterprise_users/${boss.id}?hard_delete=true`, { method: "DELETE", token: owner.token }), 204);
    expect((await get(`/users/${boss.id}`)).status).toBe(404);
    expect((await get(`/groups/${bossGroup.id}`)).status).toBe(404);
    expect(await jsonBody(await get(`${base}/enterprise_users`, owner.token), 200)).toEqual([]);
  });

  it("lets administrators provision a user for a top-level group (PUT /users/:id provisioned_by_group_id), which claims them", async () => {
    const { owner, group, base } = await ownedGroup(`entprov-${Date.now().toString(36)}`);
    const u = await createUserWithToken(s);
    expect((await put(`/users/${u.id}`, { provisioned_by_group_id: group.id }, owner.token)).status).toBe(403);
    const updated = await jsonBody(await put(`/users/${u.id}`, { provisioned_by_group_id: group.id }), 200);
    expect(updated).toMatchObject({ provisioned_by_group_id: group.id, enterprise_group_id: group.id, enterprise_group_associated_at: expect.any(String) });
    expect(await usernames(`${base}/enterprise_users`, owner.token)).toEqual([u.username]);
    expect(await jsonBody(await put(`/users/${u.id}`, { provisioned_by_group_id: 999999 }), 404)).toEqual({ message: "404 Group Not Found" });
  });
});
