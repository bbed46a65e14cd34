import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
});
afterAll(() => s?.destroy());

describe("authentication", () => {
  it("accepts PRIVATE-TOKEN, Bearer and private_token", async () => {
    expect((await s.api("/user")).status).toBe(200);
    const bearer = await fetch(`${s.url}/api/v4/user`, { headers: { Authorization: `Bearer ${s.rootToken}` } });
    expect(bearer.status).toBe(200);
    const query = await fetch(`${s.url}/api/v4/user?private_token=${s.rootToken}`);
    expect(await query.json()).toMatchObject({ username: "root", is_admin: true });
  });

  it("answers 401 for missing, unknown, revoked and expired tokens", async () => {
    const missing = await s.api("/user", { token: null });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: "401 Unauthorized" });
    const unknown = await s.api("/projects", { token: "glpat-not-a-real-token-xxxxxx" });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: "401 Unauthorized" });

    const u = await createUserWithToken(s);
    expect((await s.api("/user", { token: u.token })).status).toBe(200); // now cached
    const self = (await (await s.api("/personal_access_tokens/self", { token: u.token })).json()) as { id: number };
    expect((await s.api(`/personal_access_tokens/${self.id}`, { method: "DELETE" })).status).toBe(204);
    // Revocation is honoured at once although the token was cached a moment ago.
    expect((await s.api("/user", { token: u.token })).status).toBe(401);

    const created = await s.api(`/users/${u.id}/personal_access_tokens`, {
      method: "POST",
      json: { name: "short", scopes: ["api"], expires_at: "2020-01-01" },
    });
    expect(created.status).toBe(400);
  });

  it("never stores or returns a token except at creation", async () => {
    const u = await createUserWithToken(s);
    const list = (await (await s.api(`/personal_access_tokens?user_id=${u.id}`)).json()) as Record<string, unknown>[];
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty("token");
    expect(list[0]).toMatchObject({ name: "t", scopes: ["api"], active: true, revoked: false, user_id: u.id });
  });

  it("enforces scopes: read_api cannot write, read_user reads only users", async () => {
    const reader = await createUserWithToken(s, ["read_api"]);
    expect((await s.api("/projects", { token: reader.token })).status).toBe(200);
    const write = await s.api("/projects", { method: "POST", token: reader.token, json: { name: "nope" } });
    expect(write.status).toBe(403);
    expect(await write.json()).toMatchObject({ error: "insufficient_scope", scope: "api" });
    const userOnly = await createUserWithToken(s, ["read_user"]);
    expect((await s.api("/user", { token: userOnly.token })).status).toBe(200);
    expect((await s.api("/projects", { token: userOnly.token })).status).toBe(403);
  });

  it("keeps administrator endpoints for administrators", async () => {
    const u = await createUserWithToken(s);
    const res = await s.api("/users", { method: "POST", token: u.token, json: { username: "x1", email: "x1@example.com", name: "X" } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "403 Forbidden" });
  });

  it("serves /version and /metadata to signed-in users and 404 for /license", async () => {
    expect(await (await s.api("/version")).json()).toEqual({ version: expect.any(String), revision: expect.any(String) });
    expect(await (await s.api("/metadata")).json()).toMatchObject({ enterprise: false, kas: { enabled: false } });
    expect((await s.api("/license")).status).toBe(404);
  });
});

describe("parameter errors", () => {
  it("names missing and invalid parameters", async () => {
    const missing = await s.api("/groups", { method: "POST", json: {} });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: "name is missing, path is missing" });
    const bad = await s.api("/groups", { method: "POST", json: { name: "g", path: "g", visibility: "secret" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "visibility does not have a valid value" });
    const noName = await s.api("/projects", { method: "POST", json: {} });
    expect(await noName.json()).toEqual({ error: "name, path are missing, at least one parameter must be provided" });
  });

  it("accepts form-encoded and multipart bodies like JSON", async () => {
    const form = await s.api("/groups", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=Form+Group&path=form-group&visibility=public",
    });
    expect(form.status).toBe(201);
    expect(await form.json()).toMatchObject({ name: "Form Group", path: "form-group", visibility: "public" });
    const fd = new FormData();
    fd.set("name", "Multi");
    fd.set("path", "multi");
    const multi = await s.api("/groups", { method: "POST", body: fd });
    expect(multi.status).toBe(201);
  });

  it("reports a duplicate project with GitLab's validation body and writes nothing", async () => {
    expect((await s.api("/projects", { method: "POST", json: { name: "dup" } })).status).toBe(201);
    const again = await s.api("/projects", { method: "POST", json: { name: "dup" } });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: { name: ["has already been taken"], path: ["has already been taken"] } });
    const list = (await (await s.api("/projects?search=dup")).json()) as unknown[];
    expect(list).toHaveLength(1);
  });
});
