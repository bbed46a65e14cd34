// Service accounts end to end: instance accounts (administrators), group accounts (Owners of a
// top-level group) and their personal access tokens, over fetch (exact statuses and bodies) and
// @gitbeaker/rest's ServiceAccounts / GroupServiceAccounts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
const { post, del } = jsonRequests(() => s);
const get = (path: string, token?: string | null) => s.api(path, { token });
const patch = (path: string, json: unknown, token?: string | null) => s.api(path, { method: "PATCH", json, token });
let host: string;

beforeAll(async () => {
  s = await startTestStack();
  host = new URL(s.url).hostname;
}, 60_000);
afterAll(() => s?.destroy());

describe("instance service accounts", () => {
  it("creates with GitLab's defaults, lists with order and sort, updates, and refuses non-administrators", async () => {
    const a = await jsonBody(await post("/service_accounts", {}), 201);
    expect(Object.keys(a).sort()).toEqual(["email", "id", "name", "username"]);
    expect(a.name).toBe("Service account user");
    expect(a.username).toMatch(/^service_account_[0-9a-f]{32}$/);
    expect(a.email).toBe(`${a.username}@noreply.${host}`);
    const b = await s.gitlab().ServiceAccounts.create({ name: "Builder", username: "aaa-builder" });
    expect(b).toMatchObject({ name: "Builder", username: "aaa-builder" });
    const c = await jsonBody(await post("/service_accounts", { email: "ci-bot@example.com" }), 201);
    expect(c.email).toBe("ci-bot@example.com");
    expect(await jsonBody(await post("/service_accounts", { email: "ci-bot@example.com" }), 400)).toEqual({
      message: "400 Bad request - Email has already been taken",
    });

    expect((await jsonBody(await get("/service_accounts"), 200)).map((x: { id: number }) => x.id)).toEqual([c.id, b.id, a.id]);
    const asc = await jsonBody(await get("/service_accounts?order_by=username&sort=asc"), 200);
    expect(asc[0]).toEqual({ id: b.id, username: "aaa-builder", name: "Builder" });
    expect(await jsonBody(await get("/service_accounts?order_by=name"), 400)).toEqual({ error: "order_by does not have a valid value" });

    const updated = await jsonBody(await patch(`/service_accounts/${a.id}`, { name: "Renamed", email: "renamed-bot@example.com" }), 200);
    expect(updated).toEqual({ id: a.id, username: a.username, name: "Renamed", email: a.email, unconfirmed_email: "renamed-bot@example.com" });
    expect(await jsonBody(await patch("/service_accounts/999999", { name: "x" }), 404)).toEqual({ message: "404 User Not Found" });

    const user = await createUserWithToken(s);
    expect(await jsonBody(await get("/service_accounts", user.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await post("/service_accounts", {}, user.token), 403)).toEqual({ message: "403 Forbidden" });
    expect((await get("/service_accounts", null)).status).toBe(401);

    // Bots, not humans.
    const humans = await jsonBody(await get("/users?humans=true&per_page=100"), 200);
    expect(humans.map((u: { username: string }) => u.username)).not.toContain("aaa-builder");
    expect((await jsonBody(await get(`/users/${b.id}`), 200)).bot).toBe(true);
  });
});

describe("group service accounts", () => {
  it("Owners of top-level groups manage accounts and their tokens with every filter and sort", async () => {
    const owner = await createUserWithToken(s);
    const dev = await createUserWithToken(s);
    const group = await jsonBody(await post("/groups", { name: "Bots", path: `bots-${Date.now().toString(36)}` }, owner.token), 201);
    const sub = await jsonBody(await post("/groups", { name: "Sub", path: "sub", parent_id: group.id }, owner.token), 201);
    await jsonBody(await post(`/groups/${group.id}/members`, { user_id: dev.id, access_level: 30 }, owner.token), 201);
    const base = `/groups/${group.id}/service_accounts`;

    const sa = await jsonBody(await post(base, {}, owner.token), 201);
    expect(sa.username).toMatch(new RegExp(`^service_account_group_${group.id}_[0-9a-f]{32}$`));
    expect(sa).toMatchObject({ name: "Service account user", email: `${sa.username}@noreply.${host}` });
    const named = await s.gitlab(owner.token).GroupServiceAccounts.create(group.id, { name: "Deployer", username: `deployer-${group.id}` });
    expect(named).toMatchObject({ name: "Deployer", username: `deployer-${group.id}` });
    expect(await jsonBody(await post(`/groups/${sub.id}/service_accounts`, {}, owner.token), 400)).toEqual({
      message: "400 Bad request - Group must be a top-level group",
    });
    expect(await jsonBody(await post(base, {}, dev.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await post("/groups/999999/service_accounts", {}, owner.token), 404)).toEqual({ message: "404 Group Not Found" });

    expect(await jsonBody(await get(base, owner.token), 200)).toEqual([
      { id: named.id, username: named.username, name: "Deployer", email: `${named.username}@noreply.${host}` },
      { id: sa.id, username: sa.username, name: sa.name, email: sa.email },
    ]);
    expect((await jsonBody(await get(`${base}?order_by=username&sort=asc`, owner.token), 200))[0].id).toBe(named.id);

    expect(await jsonBody(await patch(`${base}/${sa.id}`, { name: "Bot" }, owner.token), 200)).toMatchObject({ id: sa.id, name: "Bot" });

    const tokens = `${base}/${sa.id}/personal_access_tokens`;
    expect(await jsonBody(await post(tokens, { scopes: ["api"] }, owner.token), 400)).toEqual({ error: "name is missing" });
    const t1 = await jsonBody(await post(tokens, { name: "beta", scopes: ["api"], description: "deploys" }, owner.token), 201);
    expect(t1).toMatchObject({ name: "beta", scopes: ["api"], description: "deploys", user_id: sa.id, revoked: false, active: true, last_used_at: null });
    expect(t1.token).toMatch(/^glpat-/);
    const t2 = await jsonBody(await post(tokens, { name: "alpha", scopes: ["read_api"], expires_at: "2099-01-01" }, owner.token), 201);
    expect(t2.expires_at).toBe("2099-01-01");
    // The token acts as the bot.
    const me = await jsonBody(await get("/user", t1.token), 200);
    expect(me).toMatchObject({ id: sa.id, username: sa.username, bot: true });

    const names = async (query: string) => (await jsonBody(await get(`${tokens}${query}`, owner.token), 200)).map((t: { name: string }) => t.name);
    expect(await names("")).toEqual(["alpha", "beta"]);
    expect(await names("?sort=name_asc")).toEqual(["alpha", "beta"]);
    expect(await names("?sort=name_desc")).toEqual(["beta", "alpha"]);
    expect(await names("?sort=created_asc")).toEqual(["beta", "alpha"]);
    expect(await names("?sort=expires_asc")).toEqual(["beta", "alpha"]);
    expect(await names("?sort=last_used_desc")).toEqual(["beta", "alpha"]);
    expect(await names("?search=ALP")).toEqual(["alpha"]);
    expect(await names("?expires_after=2098-01-01")).toEqual(["alpha"]);
    expect(await names("?expires_before=2098-01-01")).toEqual(["beta"]);
    expect(await names("?created_after=2000-01-01T00:00:00Z&created_before=2999-01-01T00:00:00Z")).toHaveLength(2);
    expect(await names("?last_used_after=2000-01-01T00:00:00Z")).toEqual(["beta"]);
    expect(await names("?last_used_before=2000-01-01T00:00:00Z")).toEqual([]);
    expect(await jsonBody(await get(`${tokens}?sort=sideways`, owner.token), 400)).toEqual({ error: "sort does not have a valid value" });
    expect((await get(tokens, null)).status).toBe(401);
    expect(await jsonBody(await get(`/groups/999999/service_accounts/${sa.id}/personal_access_tokens`, owner.token), 404)).toEqual({
      message: "404 Group Not Found",
    });

    expect((await del(`${tokens}/${t1.id}`, owner.token)).status).toBe(204);
    expect((await get("/user", t1.token)).status).toBe(401);
    expect(await names("?revoked=true")).toEqual(["beta"]);
    expect(await names("?state=active")).toEqual(["alpha"]);
    expect(await names("?state=inactive")).toEqual(["beta"]);
    expect((await del(`${tokens}/${t1.id}`, owner.token)).status).toBe(400);
    expect(await jsonBody(await del(`${tokens}/999999`, owner.token), 404)).toEqual({ message: "404 Token Not Found" });

    expect((await del(`${base}/${sa.id}?hard_delete=true`, owner.token)).status).toBe(204);
    expect((await get("/user", t2.token)).status).toBe(401);
    expect(await jsonBody(await del(`${base}/${sa.id}`, owner.token), 404)).toEqual({ message: "404 User Not Found" });
    expect((await jsonBody(await get(base, owner.token), 200)).map((x: { id: number }) => x.id)).toEqual([named.id]);
  });
});
