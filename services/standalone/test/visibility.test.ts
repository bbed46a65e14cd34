import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let owner: Awaited<ReturnType<typeof createUserWithToken>>;
let outsider: Awaited<ReturnType<typeof createUserWithToken>>;
let reporter: Awaited<ReturnType<typeof createUserWithToken>>;

beforeAll(async () => {
  s = await startTestStack();
  owner = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
  reporter = await createUserWithToken(s);
});
afterAll(() => s?.destroy());

describe("404 versus 403", () => {
  it("hides a private project from outsiders and anonymous callers", async () => {
    const created = await s.api("/projects", { method: "POST", token: owner.token, json: { name: "Secret Plans", visibility: "private" } });
    expect(created.status).toBe(201);
    const project = (await created.json()) as { id: number; path_with_namespace: string; permissions: unknown };
    expect(project.permissions).toEqual({ project_access: { access_level: 50, notification_level: 3 }, group_access: null });

    for (const token of [outsider.token, null]) {
      const res = await s.api(`/projects/${project.id}`, { token });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: "404 Project Not Found" });
    }
    const byPath = await s.api(`/projects/${encodeURIComponent(project.path_with_namespace)}`, { token: outsider.token });
    expect(byPath.status).toBe(404);
    // Nor is it listed.
    const listed = (await (await s.api("/projects", { token: outsider.token })).json()) as { id: number }[];
    expect(listed.map((p) => p.id)).not.toContain(project.id);
  });

  it("lets a reporter read but not change: 403 for a visible resource", async () => {
    const project = (await (await s.api("/projects", { method: "POST", token: owner.token, json: { name: "Team" } })).json()) as { id: number };
    const add = await s.api(`/projects/${project.id}/members`, { method: "POST", token: owner.token, json: { user_id: reporter.id, access_level: 20 } });
    expect(add.status).toBe(201);
    expect(await add.json()).toMatchObject({ id: reporter.id, username: reporter.username, access_level: 20, membership_state: "active" });
    expect((await s.api(`/projects/${project.id}`, { token: reporter.token })).status).toBe(200);
    const update = await s.api(`/projects/${project.id}`, { method: "PUT", token: reporter.token, json: { description: "x" } });
    expect(update.status).toBe(403);
    expect(await update.json()).toEqual({ message: "403 Forbidden" });
    const del = await s.api(`/projects/${project.id}`, { method: "DELETE", token: reporter.token });
    expect(del.status).toBe(403);
  });

  it("serves public projects anonymously and internal ones to any signed-in user", async () => {
    const pub = (await (await s.api("/projects", { method: "POST", token: owner.token, json: { name: "Open", visibility: "public" } })).json()) as {
      id: number;
    };
    const anon = await s.api(`/projects/${pub.id}`, { token: null });
    expect(anon.status).toBe(200);
    expect(await anon.json()).toMatchObject({ id: pub.id, visibility: "public" });
    const internal = (await (await s.api("/projects", { method: "POST", token: owner.token, json: { name: "Company", visibility: "internal" } })).json()) as {
      id: number;
    };
    expect((await s.api(`/projects/${internal.id}`, { token: outsider.token })).status).toBe(200);
    expect((await s.api(`/projects/${internal.id}`, { token: null })).status).toBe(404);
  });

  it("hides private groups (404 Group Not Found) and inherits group roles into projects", async () => {
    const group = (await (await s.api("/groups", { method: "POST", token: owner.token, json: { name: "Hidden", path: "hidden" } })).json()) as { id: number };
    const subRes = await s.api("/groups", { method: "POST", token: owner.token, json: { name: "Sub", path: "sub", parent_id: group.id } });
    expect(subRes.status).toBe(201);
    const sub = (await subRes.json()) as { id: number };
    expect(sub).toMatchObject({ full_path: "hidden/sub", full_name: "Hidden / Sub" });
    const res = await s.api(`/groups/${group.id}`, { token: outsider.token });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "404 Group Not Found" });

    const proj = await s.api("/projects", { method: "POST", token: owner.token, json: { name: "Deep", namespace_id: sub.id } });
    expect(proj.status).toBe(201);
    const deep = (await proj.json()) as { id: number; path_with_namespace: string };
    expect(deep.path_with_namespace).toBe("hidden/sub/deep");
    // Project lookup by URL-encoded full path.
    const byPath = await s.api(`/projects/${encodeURIComponent("hidden/sub/deep")}`, { token: owner.token });
    expect(byPath.status).toBe(200);
    expect(await byPath.json()).toMatchObject({ id: deep.id, permissions: { group_access: { access_level: 50 } } });

    // A developer in the top group reaches the project in the subgroup.
    await s.api(`/groups/${group.id}/members`, { method: "POST", token: owner.token, json: { user_id: outsider.id, access_level: 30 } });
    const seen = await s.api(`/projects/${deep.id}`, { token: outsider.token });
    expect(seen.status).toBe(200);
    expect(await seen.json()).toMatchObject({ permissions: { project_access: null, group_access: { access_level: 30 } } });
    const inherited = (await (await s.api(`/projects/${deep.id}/members/all`, { token: outsider.token })).json()) as { id: number }[];
    expect(inherited.map((m) => m.id)).toContain(outsider.id);
  });

  it("refuses to remove the sole owner of a group with 409", async () => {
    const g = (await (await s.api("/groups", { method: "POST", token: owner.token, json: { name: "Solo", path: "solo" } })).json()) as { id: number };
    const res = await s.api(`/groups/${g.id}/members/${owner.id}`, { method: "DELETE", token: owner.token });
    expect(res.status).toBe(409);
  });
});
