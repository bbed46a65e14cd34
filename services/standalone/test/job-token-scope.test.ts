import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let source: { id: number };
let other: { id: number; path_with_namespace: string };
let third: { id: number };
let group: { id: number; full_path: string };
let developer: Awaited<ReturnType<typeof createUserWithToken>>;

beforeAll(async () => {
  s = await startTestStack();
  const api = s.gitlab();
  source = await api.Projects.create({ name: "scoped" });
  other = (await api.Projects.create({ name: "allowed" })) as unknown as typeof other;
  third = await api.Projects.create({ name: "third" });
  group = (await api.Groups.create("ci-friends", "ci-friends")) as unknown as typeof group;
  developer = await createUserWithToken(s);
  await s.api(`/projects/${source.id}/members`, { method: "POST", json: { user_id: developer.id, access_level: 30 } });
});
afterAll(() => s?.destroy());

describe("job token scope", () => {
  it("reads and changes the setting (PATCH 204) with @gitbeaker/rest", async () => {
    const api = s.gitlab();
    expect(await api.ProjectJobTokenScopes.show(source.id)).toEqual({ inbound_enabled: true, outbound_enabled: false });
    const patched = await s.api(`/projects/${source.id}/job_token_scope`, { method: "PATCH", json: { enabled: false } });
    expect(patched.status).toBe(204);
    expect(await patched.text()).toBe("");
    expect(await api.ProjectJobTokenScopes.show(source.id)).toMatchObject({ inbound_enabled: false });
    await api.ProjectJobTokenScopes.edit(source.id, true);
    expect(await api.ProjectJobTokenScopes.show(source.id)).toMatchObject({ inbound_enabled: true });
    const missing = await s.api(`/projects/${source.id}/job_token_scope`, { method: "PATCH", json: {} });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: "enabled is missing" });
  });

  it("lists the project itself, adds projects (201), refuses duplicates (400) and removes them (204)", async () => {
    const api = s.gitlab();
    expect((await api.ProjectJobTokenScopes.showInboundAllowList(source.id)).map((p) => p.id)).toEqual([source.id]);
    const added = await s.api(`/projects/${source.id}/job_token_scope/allowlist`, { method: "POST", json: { target_project_id: other.id } });
    expect(added.status).toBe(201);
    expect(await added.json()).toEqual({ source_project_id: source.id, target_project_id: other.id });
    await api.ProjectJobTokenScopes.addToInboundAllowList(source.id, third.id);
    const list = await s.api(`/projects/${source.id}/job_token_scope/allowlist?per_page=2`);
    expect(list.headers.get("x-total")).toBe("3");
    const entries = (await list.json()) as Record<string, unknown>[];
    expect(entries.map((p) => p.id)).toEqual([source.id, other.id]);
    expect(Object.keys(entries[1]!).sort()).toEqual(
      [
        "avatar_url",
        "created_at",
        "default_branch",
        "description",
        "http_url_to_repo",
        "id",
        "last_activity_at",
        "name",
        "name_with_namespace",
        "namespace",
        "path",
        "path_with_namespace",
        "ssh_url_to_repo",
        "star_count",
        "tag_list",
        "topics",
        "web_url",
      ].sort(),
    );
    expect(entries[1]).toMatchObject({ path_with_namespace: other.path_with_namespace });

    const duplicate = await s.api(`/projects/${source.id}/job_token_scope/allowlist`, { method: "POST", json: { target_project_id: other.id } });
    expect(duplicate.status).toBe(400);
    expect(await duplicate.json()).toEqual({ message: "400 Bad request - Target project is already in the job token scope" });
    const unknown = await s.api(`/projects/${source.id}/job_token_scope/allowlist`, { method: "POST", json: { target_project_id: 999999 } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "404 target_project_id not found Not Found" });

    const removed = await s.api(`/projects/${source.id}/job_token_scope/allowlist/${other.id}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    await api.ProjectJobTokenScopes.removeFromInboundAllowList(source.id, third.id);
    const again = await s.api(`/projects/${source.id}/job_token_scope/allowlist/${other.id}`, { method: "DELETE" });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: "400 Bad request - Target project is not in the job token scope" });
    const self = await s.api(`/projects/${source.id}/job_token_scope/allowlist/${source.id}`, { method: "DELETE" });
    expect(await self.json()).toEqual({ message: "400 Bad request - Source project cannot be removed from the job token scope" });
  });

  it("manages the groups allowlist", async () => {
    const api = s.gitlab();
    const added = await s.api(`/projects/${source.id}/job_token_scope/groups_allowlist`, { method: "POST", json: { target_group_id: group.id } });
    expect(added.status).toBe(201);
    expect(await added.json()).toEqual({ source_project_id: source.id, target_group_id: group.id });
    expect(await api.ProjectJobTokenScopes.showGroupsAllowList(source.id)).toEqual([
      { id: group.id, web_url: `${s.url}/groups/${group.full_path}`, name: "ci-friends" },
    ]);
    const duplicate = await s.api(`/projects/${source.id}/job_token_scope/groups_allowlist`, { method: "POST", json: { target_group_id: group.id } });
    expect(await duplicate.json()).toEqual({ message: "400 Bad request - Target group is already in the job token scope" });
    const unknown = await s.api(`/projects/${source.id}/job_token_scope/groups_allowlist`, { method: "POST", json: { target_group_id: 999999 } });
    expect(unknown.status).toBe(404);
    expect((await s.api(`/projects/${source.id}/job_token_scope/groups_allowlist/${group.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await api.ProjectJobTokenScopes.showGroupsAllowList(source.id)).toEqual([]);
  });

  it("needs Maintainer: Developers get 403, outsiders of a private project 404", async () => {
    expect((await s.api(`/projects/${source.id}/job_token_scope`, { token: developer.token })).status).toBe(403);
    const post = await s.api(`/projects/${source.id}/job_token_scope/allowlist`, {
      method: "POST",
      json: { target_project_id: other.id },
      token: developer.token,
    });
    expect(post.status).toBe(403);
    const outsider = await createUserWithToken(s);
    expect((await s.api(`/projects/${source.id}/job_token_scope`, { token: outsider.token })).status).toBe(404);
    // The refusals wrote nothing.
    expect((await s.gitlab().ProjectJobTokenScopes.showInboundAllowList(source.id)).map((p) => p.id)).toEqual([source.id]);
  });
});
