// Users administration end to end: GET /users filters and views of document 3, state changes
// (block, unblock, deactivate, activate, ban, unban) with GitLab's rules and what they do to
// tokens, memberships, impersonation tokens and custom attributes, over fetch and @gitbeaker/rest.
import { databaseUrlFor } from "@quarry/database";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

/** Runs SQL on identity-service's database: tests age accounts the way time would. */
async function identitySql(sql: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrlFor(s.options.serverUrl, `${s.options.prefix}_identity`) });
  await client.connect();
  try {
    await client.query(sql, values);
  } finally {
    await client.end();
  }
}

const post = (path: string, token?: string | null) => s.api(path, { method: "POST", token });
const usernames = async (path: string, token?: string | null) =>
  ((await jsonBody(await s.api(path, { token }), 200)) as { username: string }[]).map((u) => u.username);

describe("GET /users", () => {
  it("takes every filter of document 3, hides blocked users from non-administrators, and needs a username from anonymous callers", async () => {
    const tag = Date.now().toString(36);
    const ext = await createUserWithToken(s, ["api"], { username: `ext${tag}`, email: `ext${tag}@example.com`, name: `Outside Person ${tag}`, external: true });
    const pub = await createUserWithToken(s, ["api"], { username: `pub${tag}`, name: `Published ${tag}`, public_email: `pub${tag}@example.org` });
    const blocked = await createUserWithToken(s, ["api"], { username: `blk${tag}` });
    expect(await jsonBody(await post(`/users/${blocked.id}/block`), 201)).toBe(true);

    expect(await jsonBody(await s.api("/users", { token: null }), 403)).toEqual({ message: "403 Forbidden - Not authorized to access /api/v4/users" });
    expect(await usernames(`/users?username=EXT${tag}`, null)).toEqual([`ext${tag}`]);
    expect(await usernames(`/users?public_email=pub${tag}@example.org`, ext.token)).toEqual([`pub${tag}`]);
    // Fuzzy: each word of 3+ characters anywhere in the name; a leading @ dropped.
    expect(await usernames(`/users?search=${encodeURIComponent(`person ${tag} outside`)}`, pub.token)).toEqual([`ext${tag}`]);
    expect(await usernames(`/users?search=${encodeURIComponent(`@pub${tag}`)}`, ext.token)).toEqual([`pub${tag}`]);
    expect(await usernames(`/users?search=${`pub${tag}`}@example.org`, ext.token)).toEqual([`pub${tag}`]);
    // The primary e-mail is searched for administrators only.
    expect(await usernames(`/users?search=${`ext${tag}`}@example.com`, pub.token)).toEqual([]);
    expect(await usernames(`/users?search=${`ext${tag}`}@example.com`)).toEqual([`ext${tag}`]);
    expect(await usernames(`/users?search=${tag}&external=true`, pub.token)).toEqual([`ext${tag}`]);
    expect(await usernames(`/users?search=${tag}&exclude_external=true&order_by=username&sort=asc`)).toEqual([`blk${tag}`, `pub${tag}`]);
    expect(await usernames(`/users?search=${tag}&blocked=true`)).toEqual([`blk${tag}`]);
    expect(await usernames(`/users?search=${tag}&blocked=true`, pub.token)).toEqual([]);
    expect(await usernames(`/users?search=${tag}&exclude_active=true`)).toEqual([`blk${tag}`]);
    expect(await usernames(`/users?search=${tag}&active=true&humans=true&exclude_internal=true&without_project_bots=true&order_by=name&sort=asc`)).toEqual([
      `ext${tag}`,
      `pub${tag}`,
    ]);
    expect(await usernames(`/users?search=${tag}&exclude_humans=true`)).toEqual([]);
    expect(await usernames(`/users?search=${tag}&two_factor=enabled`)).toEqual([]);
    expect((await usernames(`/users?search=${tag}&two_factor=disabled`)).length).toBe(3);
    await jsonBody(await s.api("/projects", { method: "POST", json: { name: `p${tag}` }, token: pub.token }), 201);
    expect(await usernames(`/users?search=${tag}&without_projects=true&order_by=id&sort=asc`)).toEqual([`ext${tag}`, `blk${tag}`]);
    expect(await usernames(`/users?search=${tag}&created_after=2099-01-01T00:00:00Z`)).toEqual([]);
    expect(await jsonBody(await s.api("/users?two_factor=maybe"), 400)).toEqual({ error: "two_factor does not have a valid value" });
  });

  it("pages by keyset with GitLab's Link header, and @gitbeaker/rest's Users.all filters", async () => {
    const tag = `k${Date.now().toString(36)}`;
    for (const n of [1, 2, 3]) await createUserWithToken(s, ["api"], { username: `${tag}${n}` });
    const first = await s.api(`/users?search=${tag}&pagination=keyset&order_by=id&sort=asc&per_page=2`);
    expect(((await jsonBody(first, 200)) as { username: string }[]).map((u) => u.username)).toEqual([`${tag}1`, `${tag}2`]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    expect(next).toContain("cursor=");
    const second = await fetch(next!, { headers: { "PRIVATE-TOKEN": s.rootToken } });
    expect(((await jsonBody(second, 200)) as { username: string }[]).map((u) => u.username)).toEqual([`${tag}3`]);
    expect(second.headers.get("link")).toBeNull();

    const api = s.gitlab();
    const found = await api.Users.all({ search: tag, orderBy: "username", sort: "asc", excludeExternal: true, withoutProjectBots: true });
    expect(found.map((u) => u.username)).toEqual([`${tag}1`, `${tag}2`, `${tag}3`]);
  });

  it("shows administrators every field of document 3's administrator view, created_by and last_activity_on included", async () => {
    const u = await createUserWithToken(s, ["api"]);
    const before = await jsonBody(await s.api(`/users/${u.id}`), 200);
    expect(before.last_activity_on).toBeNull();
    await jsonBody(await s.api("/user", { token: u.token }), 200);
    const view = await jsonBody(await s.api(`/users/${u.id}`), 200);
    for (const field of [
      "email",
      "is_admin",
      "last_sign_in_at",
      "confirmed_at",
      "theme_id",
      "last_activity_on",
      "color_scheme_id",
      "projects_limit",
      "current_sign_in_at",
      "note",
      "identities",
      "can_create_group",
      "can_create_project",
      "two_factor_enabled",
      "external",
      "private_profile",
      "commit_email",
      "current_sign_in_ip",
      "last_sign_in_ip",
      "namespace_id",
      "created_by",
      "email_reset_offered_at",
    ]) {
      expect(view, field).toHaveProperty(field);
    }
    expect(view.last_activity_on).toBe(new Date().toISOString().slice(0, 10));
    expect(view.created_by).toMatchObject({ username: "root", state: "active" });
    expect(view.two_factor_enabled).toBe(false);
    const listed = (await jsonBody(await s.api(`/users?username=${u.username}`), 200))[0];
    expect(listed.created_by).toMatchObject({ username: "root" });
    // Others see the public profile, without administrator fields.
    const other = await createUserWithToken(s, ["api"]);
    const seen = await jsonBody(await s.api(`/users/${u.id}`, { token: other.token }), 200);
    expect(seen).not.toHaveProperty("created_by");
    expect(seen).not.toHaveProperty("email");
  });
});

describe("user state changes", () => {
  it("blocks and unblocks with GitLab's answers; a blocked user's token is refused with 403", async () => {
    const u = await createUserWithToken(s, ["api"]);
    const other = await createUserWithToken(s, ["api"]);
    const project = await jsonBody(await s.api("/projects", { method: "POST", json: { name: "mine" }, token: u.token }), 201);
    const refs = () =>
      fetch(`${s.url}/${project.path_with_namespace}.git/info/refs?service=git-upload-pack`, {
        headers: { Authorization: `Basic ${Buffer.from(`${u.username}:${u.token}`).toString("base64")}` },
      });
    expect((await refs()).status).toBe(200);
    expect(await jsonBody(await post(`/users/${u.id}/block`, other.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await s.api("/user", { token: u.token }), 200)).toMatchObject({ username: u.username });
    expect(await jsonBody(await post(`/users/${u.id}/block`), 201)).toBe(true);
    expect(await jsonBody(await post(`/users/${u.id}/block`), 201)).toBeNull();
    expect(await jsonBody(await s.api("/user", { token: u.token }), 403)).toEqual({ message: "403 Forbidden - Your account has been blocked." });
    expect((await jsonBody(await s.api(`/users/${u.id}`), 200)).state).toBe("blocked");
    // Git over HTTP refuses the token as bad credentials, as GitLab's find_for_git_client.
    expect((await refs()).status).toBe(401);
    expect(await jsonBody(await s.api(`/users/${u.id}/custom_attributes/blocked_by`), 200)).toMatchObject({
      key: "blocked_by",
      value: expect.stringMatching(/^root\/\d+\+/),
    });
    expect(await jsonBody(await post(`/users/${u.id}/activate`), 403)).toEqual({ message: "403 Forbidden - A blocked user must be unblocked to be activated" });
    expect(await jsonBody(await post(`/users/${u.id}/unblock`), 201)).toBe(true);
    expect(await jsonBody(await post(`/users/${u.id}/unblock`), 201)).toBe(false);
    expect(await jsonBody(await s.api("/user", { token: u.token }), 200)).toMatchObject({ username: u.username, state: "active" });
    expect(await jsonBody(await post("/users/1/block"), 403)).toEqual({ message: "403 Forbidden - The API initiating user cannot be blocked by the API" });
    expect(await jsonBody(await post("/users/999999/block"), 404)).toEqual({ message: "404 User Not Found" });
  });

  it("deactivates only dormant users; a deactivated user's token gets GitLab's message until an administrator activates them", async () => {
    const u = await createUserWithToken(s, ["api"]);
    expect(await jsonBody(await post(`/users/${u.id}/deactivate`), 403)).toEqual({
      message: "The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated",
    });
    // Eight days old and never active: dormant (GitLab's MINIMUM_DAYS_CREATED).
    await identitySql("UPDATE users SET created_at = now() - interval '8 days', last_activity_on = NULL WHERE id = $1", [u.id]);
    expect(await jsonBody(await post(`/users/${u.id}/deactivate`), 201)).toBe(true);
    expect(await jsonBody(await post(`/users/${u.id}/deactivate`), 201)).toBeNull();
    expect(await jsonBody(await s.api("/user", { token: u.token }), 403)).toEqual({
      message: `403 Forbidden - Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${s.url}`,
    });
    expect(await jsonBody(await post(`/users/${u.id}/unblock`), 403)).toEqual({ message: "403 Forbidden - Deactivated users cannot be unblocked by the API" });
    expect(await jsonBody(await post(`/users/${u.id}/ban`), 403)).toEqual({ message: "You cannot ban deactivated users." });
    const api = s.gitlab();
    await api.Users.activate(u.id);
    expect(await jsonBody(await s.api("/user", { token: u.token }), 200)).toMatchObject({ state: "active" });
  });

  it("bans and unbans through @gitbeaker/rest; banned users' tokens stop and non-administrators no longer list them", async () => {
    const u = await createUserWithToken(s, ["api"]);
    const other = await createUserWithToken(s, ["api"]);
    const api = s.gitlab();
    await api.Users.ban(u.id);
    expect(await jsonBody(await s.api("/user", { token: u.token }), 403)).toEqual({ message: "403 Forbidden - Your account has been blocked." });
    expect(await jsonBody(await post(`/users/${u.id}/ban`), 403)).toEqual({ message: "You cannot ban banned users." });
    expect(await usernames(`/users?username=${u.username}`, other.token)).toEqual([]);
    expect((await api.Users.show(u.id)).state).toBe("banned");
    await api.Users.unban(u.id);
    expect(await jsonBody(await post(`/users/${u.id}/unban`), 403)).toEqual({ message: "You cannot unban active users." });
    await api.Users.block(u.id);
    expect((await api.Users.show(u.id)).state).toBe("blocked");
    await api.Users.unblock(u.id);
    // Just unblocked and active today: not dormant.
    await expect(api.Users.deactivate(u.id)).rejects.toThrow("has been active in the past 90 days and cannot be deactivated");
    expect(await jsonBody(await s.api("/user", { token: u.token }), 200)).toMatchObject({ state: "active" });
  });
});

describe("memberships", () => {
  it("lists a user's project and group memberships for administrators (type filter, 403 for others)", async () => {
    const owner = await createUserWithToken(s, ["api"]);
    const m = await createUserWithToken(s, ["api"]);
    const tag = Date.now().toString(36);
    const group = await jsonBody(await s.api("/groups", { method: "POST", json: { name: `Mem ${tag}`, path: `mem-${tag}` }, token: owner.token }), 201);
    const project = await jsonBody(await s.api("/projects", { method: "POST", json: { name: `mem-${tag}` }, token: owner.token }), 201);
    await jsonBody(await s.api(`/groups/${group.id}/members`, { method: "POST", json: { user_id: m.id, access_level: 30 }, token: owner.token }), 201);
    await jsonBody(await s.api(`/projects/${project.id}/members`, { method: "POST", json: { user_id: m.id, access_level: 20 }, token: owner.token }), 201);
    expect(await jsonBody(await s.api(`/users/${m.id}/memberships`), 200)).toEqual([
      { source_id: group.id, source_name: `Mem ${tag}`, source_type: "Namespace", access_level: 30 },
      { source_id: project.id, source_name: `mem-${tag}`, source_type: "Project", access_level: 20 },
    ]);
    expect(await jsonBody(await s.api(`/users/${m.id}/memberships?type=Project`), 200)).toEqual([
      { source_id: project.id, source_name: `mem-${tag}`, source_type: "Project", access_level: 20 },
    ]);
    expect(await jsonBody(await s.api(`/users/${m.id}/memberships?type=Group`), 400)).toEqual({ error: "type does not have a valid value" });
    expect(await jsonBody(await s.api(`/users/${m.id}/memberships`, { token: m.token }), 403)).toEqual({ message: "403 Forbidden" });
    const viaClient = await s.gitlab().Users.allMemberships(m.id, { type: "Namespace" });
    expect(viaClient.map((x) => x.source_id)).toEqual([group.id]);
  });
});

describe("impersonation tokens", () => {
  it("are made, listed, read and revoked by administrators, and act as the user", async () => {
    const u = await createUserWithToken(s, ["api"]);
    const api = s.gitlab();
    const created = await api.UserImpersonationTokens.create(u.id, "imp", ["api"], { expiresAt: "2099-01-01" });
    expect(created).toMatchObject({ name: "imp", impersonation: true, active: true, revoked: false, scopes: ["api"], user_id: u.id, expires_at: "2099-01-01" });
    const token = created.token as string;
    expect(await jsonBody(await s.api("/user", { token }), 200)).toMatchObject({ id: u.id, username: u.username });
    const listed = await jsonBody(await s.api(`/users/${u.id}/impersonation_tokens`), 200);
    expect(listed.map((t: { id: number; impersonation: boolean }) => [t.id, t.impersonation])).toEqual([[created.id, true]]);
    expect(listed[0]).not.toHaveProperty("token");
    expect((await api.UserImpersonationTokens.show(u.id, created.id as number)).name).toBe("imp");
    // The user's personal token is not an impersonation token.
    const pats = await jsonBody(await s.api(`/personal_access_tokens?user_id=${u.id}`), 200);
    const personal = pats.find((t: { name: string }) => t.name === "t");
    expect(await jsonBody(await s.api(`/users/${u.id}/impersonation_tokens/${personal.id}`), 404)).toEqual({ message: "404 Impersonation Token Not Found" });
    expect(await jsonBody(await s.api(`/users/${u.id}/impersonation_tokens`, { method: "POST", json: { name: "x" } }), 400)).toEqual({
      message: { scopes: ["can't be blank"] },
    });
    expect(await jsonBody(await s.api(`/users/${u.id}/impersonation_tokens`, { token: u.token }), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await s.api("/users/999999/impersonation_tokens"), 404)).toEqual({ message: "404 User Not Found" });

    const revoke = await s.api(`/users/${u.id}/impersonation_tokens/${created.id}`, { method: "DELETE" });
    expect(revoke.status).toBe(204);
    expect((await s.api("/user", { token })).status).toBe(401);
    expect(await jsonBody(await s.api(`/users/${u.id}/impersonation_tokens?state=active`), 200)).toEqual([]);
    expect((await jsonBody(await s.api(`/users/${u.id}/impersonation_tokens?state=inactive`), 200)).map((t: { id: number }) => t.id)).toEqual([created.id]);
    const again = await api.UserImpersonationTokens.all(u.id, { state: "inactive" });
    expect(again.map((t) => t.revoked)).toEqual([true]);
  });
});

describe("custom attributes", () => {
  it("are kept on users, groups and projects for administrators, shown with with_custom_attributes and filter /users", async () => {
    const owner = await createUserWithToken(s, ["api"]);
    const tag = Date.now().toString(36);
    const api = s.gitlab();
    expect(await api.UserCustomAttributes.set(owner.id, "team", `red${tag}`)).toEqual({ key: "team", value: `red${tag}` });
    expect(await jsonBody(await s.api(`/users/${owner.id}/custom_attributes/team`, { method: "PUT", json: { value: `blue${tag}` } }), 200)).toEqual({
      key: "team",
      value: `blue${tag}`,
    });
    expect(await api.UserCustomAttributes.show(owner.id, "team")).toEqual({ key: "team", value: `blue${tag}` });
    expect(await jsonBody(await s.api(`/users/${owner.id}/custom_attributes/team`, { method: "PUT", json: {} }), 400)).toEqual({ error: "value is missing" });
    expect(await jsonBody(await s.api(`/users/${owner.id}/custom_attributes/nope`), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await s.api(`/users/${owner.id}/custom_attributes`, { token: owner.token }), 403)).toEqual({ message: "403 Forbidden" });

    const found = await api.Users.all({ customAttributes: { team: `blue${tag}` }, withCustomAttributes: true });
    expect(found.map((u) => [u.username, u.custom_attributes])).toEqual([[owner.username, [{ key: "team", value: `blue${tag}` }]]]);
    expect(await usernames(`/users?custom_attributes[team]=red${tag}`)).toEqual([]);
    const single = await jsonBody(await s.api(`/users/${owner.id}?with_custom_attributes=true`), 200);
    expect(single.custom_attributes).toEqual([{ key: "team", value: `blue${tag}` }]);
    // Not for non-administrators.
    expect(await jsonBody(await s.api(`/users/${owner.id}?with_custom_attributes=true`, { token: owner.token }), 200)).not.toHaveProperty("custom_attributes");

    const project = await jsonBody(await s.api("/projects", { method: "POST", json: { name: `ca-${tag}` }, token: owner.token }), 201);
    const group = await jsonBody(await s.api("/groups", { method: "POST", json: { name: `ca-${tag}`, path: `ca-${tag}` }, token: owner.token }), 201);
    await api.ProjectCustomAttributes.set(project.id, "tier", "gold");
    await api.GroupCustomAttributes.set(`ca-${tag}`, "region", "eu");
    expect(await api.ProjectCustomAttributes.all(project.path_with_namespace)).toEqual([{ key: "tier", value: "gold" }]);
    expect(await jsonBody(await s.api(`/groups/${group.id}/custom_attributes`), 200)).toEqual([{ key: "region", value: "eu" }]);
    expect((await jsonBody(await s.api(`/groups/${group.id}?with_custom_attributes=true`), 200)).custom_attributes).toEqual([{ key: "region", value: "eu" }]);
    const groups = await jsonBody(await s.api("/groups?custom_attributes[region]=eu&with_custom_attributes=true"), 200);
    expect(groups.map((g: { id: number; custom_attributes: unknown }) => [g.id, g.custom_attributes])).toEqual([[group.id, [{ key: "region", value: "eu" }]]]);
    expect(await jsonBody(await s.api(`/groups/${group.id}?with_custom_attributes=true`, { token: owner.token }), 200)).not.toHaveProperty("custom_attributes");
    expect((await jsonBody(await s.api(`/projects/${project.id}?with_custom_attributes=true`), 200)).custom_attributes).toEqual([
      { key: "tier", value: "gold" },
    ]);
    const listed = await jsonBody(await s.api(`/projects?with_custom_attributes=true&search=ca-${tag}`), 200);
    expect(listed.map((p: { custom_attributes: unknown }) => p.custom_attributes)).toEqual([[{ key: "tier", value: "gold" }]]);
    expect((await jsonBody(await s.api("/projects?custom_attributes[tier]=gold"), 200)).map((p: { id: number }) => p.id)).toEqual([project.id]);
    expect(await jsonBody(await s.api("/projects?custom_attributes[tier]=silver"), 200)).toEqual([]);

    await api.UserCustomAttributes.remove(owner.id, "team");
    const gone = await s.api(`/users/${owner.id}/custom_attributes/team`, { method: "DELETE" });
    expect(await jsonBody(gone, 404)).toEqual({ message: "404 Custom attribute Not Found" });
    expect(await jsonBody(await s.api("/projects/999999/custom_attributes"), 404)).toEqual({ message: "404 Project Not Found" });
  });
});
