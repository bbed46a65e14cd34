// Project starring end to end: plain fetch for GitLab's exact statuses (201 / 304 with no body)
// and bodies, and @gitbeaker/rest (python-gitlab: python-stars-notifications.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let pub: { id: number; path_with_namespace: string };
let priv: { id: number };
let fan: { id: number; username: string; token: string };
let outsider: { id: number; username: string; token: string };

const { post, put } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
  pub = await jsonBody(await post("/projects", { name: "stellar", visibility: "public", initialize_with_readme: true }), 201);
  priv = await jsonBody(await post("/projects", { name: "hush", visibility: "private" }), 201);
  fan = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
}, 60_000);
afterAll(() => s?.destroy());

describe("POST /projects/:id/star and /unstar", () => {
  it("answers 201 with the project and a real star_count, then 304 Not Modified with no body", async () => {
    const starred = await jsonBody(await post(`/projects/${pub.id}/star`, {}, fan.token), 201);
    expect(starred).toMatchObject({ id: pub.id, star_count: 1, repository_object_format: "sha1", license_url: null });
    expect(starred).not.toHaveProperty("repository_storage");
    const again = await post(`/projects/${pub.id}/star`, {}, fan.token);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // Root stars too: the count is everywhere, and administrators see repository_storage.
    const byRoot = await jsonBody(await post(`/projects/${encodeURIComponent(pub.path_with_namespace)}/star`, {}), 201);
    expect(byRoot).toMatchObject({ star_count: 2, repository_storage: "default" });
    expect((await jsonBody(await s.api(`/projects/${pub.id}`), 200)).star_count).toBe(2);
    const listed = await jsonBody(await s.api("/projects?simple=true&order_by=star_count"), 200);
    expect(listed.find((x: { id: number }) => x.id === pub.id).star_count).toBe(2);
    const full = await jsonBody(await s.api(`/projects?statistics=true&starred=true`), 200);
    expect(full.map((x: { id: number }) => x.id)).toEqual([pub.id]);
    expect(full[0]).toMatchObject({ star_count: 2, repository_storage: "default", statistics: { commit_count: expect.any(Number) } });
    expect(await jsonBody(await s.api(`/projects?starred=true`, { token: outsider.token }), 200)).toEqual([]);

    expect(await jsonBody(await post(`/projects/${pub.id}/unstar`, {}, fan.token), 201)).toMatchObject({ id: pub.id, star_count: 1 });
    const notStarred = await post(`/projects/${pub.id}/unstar`, {}, fan.token);
    expect(notStarred.status).toBe(304);
    expect(await notStarred.text()).toBe("");
    await jsonBody(await post(`/projects/${pub.id}/unstar`, {}), 201);
  });

  it("needs a signed-in caller who can read the project", async () => {
    expect(await jsonBody(await post(`/projects/${pub.id}/star`, {}, null), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await post(`/projects/${priv.id}/star`, {}, outsider.token), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await post("/projects/999999/unstar", {}, outsider.token), 404)).toEqual({ message: "404 Project Not Found" });
  });

  it("works through gitbeaker", async () => {
    const api = s.gitlab(outsider.token);
    const project = await api.Projects.star(pub.id);
    expect(project.star_count).toBe(1);
    expect((await api.Projects.allStarrers(pub.id)).map((x) => x.user.username)).toEqual([outsider.username]);
    expect((await api.Users.allStarredProjects(outsider.id)).map((x) => x.id)).toEqual([pub.id]);
    expect((await api.Projects.unstar(pub.id)).star_count).toBe(0);
  });
});

describe("GET /projects/:id/starrers", () => {
  it("lists starrers newest first with starred_since and UserBasic, searchable, paginated", async () => {
    await jsonBody(await post(`/projects/${pub.id}/star`, {}, fan.token), 201);
    await jsonBody(await post(`/projects/${pub.id}/star`, {}, outsider.token), 201);
    const res = await s.api(`/projects/${pub.id}/starrers?per_page=1`, { token: null });
    const page = await jsonBody(res, 200);
    expect(res.headers.get("x-total")).toBe("2");
    expect(page).toEqual([
      {
        starred_since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        user: {
          id: outsider.id,
          username: outsider.username,
          name: expect.any(String),
          state: "active",
          locked: false,
          avatar_url: null,
          web_url: `${s.url}/${outsider.username}`,
        },
      },
    ]);
    const found = await jsonBody(await s.api(`/projects/${pub.id}/starrers?search=${fan.username.toUpperCase()}`), 200);
    expect(found.map((x: { user: { id: number } }) => x.user.id)).toEqual([fan.id]);
    expect(await jsonBody(await s.api(`/projects/${priv.id}/starrers`, { token: outsider.token }), 404)).toEqual({ message: "404 Project Not Found" });
    await jsonBody(await post(`/projects/${pub.id}/unstar`, {}, outsider.token), 201);
  });
});

describe("GET /users/:user_id/starred_projects", () => {
  it("takes an id or a username, shows anonymous callers public projects only, and applies the filters", async () => {
    // The fan is a member of the private project and stars both.
    await jsonBody(await post(`/projects/${priv.id}/members`, { user_id: fan.id, access_level: 20 }), 201);
    await jsonBody(await post(`/projects/${priv.id}/star`, {}, fan.token), 201);
    const ids = async (path: string, token?: string | null) => (await jsonBody(await s.api(path, { token }), 200)).map((x: { id: number }) => x.id);

    expect(await ids(`/users/${fan.id}/starred_projects`, fan.token)).toEqual([priv.id, pub.id]);
    expect(await ids(`/users/${fan.username}/starred_projects?order_by=id&sort=asc`, fan.token)).toEqual([pub.id, priv.id]);
    expect(await ids(`/users/${fan.id}/starred_projects`, null)).toEqual([pub.id]);
    expect(await ids(`/users/${fan.id}/starred_projects`, outsider.token)).toEqual([pub.id]);
    expect(await ids(`/users/${fan.id}/starred_projects?visibility=private`, fan.token)).toEqual([priv.id]);
    expect(await ids(`/users/${fan.id}/starred_projects?membership=true`, fan.token)).toEqual([priv.id]);
    expect(await ids(`/users/${fan.id}/starred_projects?search=stell`, fan.token)).toEqual([pub.id]);
    expect(await ids(`/users/${fan.id}/starred_projects?archived=true`, fan.token)).toEqual([]);
    expect(await ids(`/users/${fan.id}/starred_projects?updated_after=2999-01-01T00:00:00Z`, fan.token)).toEqual([]);
    expect(await ids(`/users/${fan.id}/starred_projects?updated_before=2999-01-01T00:00:00Z`, fan.token)).toHaveLength(2);

    // Anonymous callers get the basic representation; statistics only for Reporters and up.
    const anon = await jsonBody(await s.api(`/users/${fan.id}/starred_projects`, { token: null }), 200);
    expect(anon[0]).not.toHaveProperty("permissions");
    const withStats = await jsonBody(await s.api(`/users/${fan.id}/starred_projects?statistics=true`, { token: fan.token }), 200);
    expect(withStats.find((x: { id: number }) => x.id === priv.id).statistics).toMatchObject({ commit_count: expect.any(Number), storage_size: 0 });
    expect(withStats.find((x: { id: number }) => x.id === pub.id)).not.toHaveProperty("statistics");

    const custom = async (token?: string) => (await jsonBody(await s.api(`/users/${fan.id}/starred_projects?with_custom_attributes=true`, { token }), 200))[0];
    expect((await custom()).custom_attributes).toEqual([]);
    expect(await custom(fan.token)).not.toHaveProperty("custom_attributes");

    expect(await jsonBody(await s.api("/users/no-such-user/starred_projects"), 404)).toEqual({ message: "404 User Not Found" });
    expect(await jsonBody(await s.api("/users/999999/starred_projects"), 404)).toEqual({ message: "404 User Not Found" });
    expect((await s.api(`/users/${fan.id}/starred_projects?order_by=stars`)).status).toBe(400);
  });

  it("hides a private profile's stars from others", async () => {
    const shy = await createUserWithToken(s, ["api"], { private_profile: true });
    await jsonBody(await post(`/projects/${pub.id}/star`, {}, shy.token), 201);
    expect(await jsonBody(await s.api(`/users/${shy.id}/starred_projects`, { token: outsider.token }), 200)).toEqual([]);
    expect(await jsonBody(await s.api(`/users/${shy.id}/starred_projects`, { token: shy.token }), 200)).toHaveLength(1);
    expect(await jsonBody(await s.api(`/users/${shy.id}/starred_projects`), 200)).toHaveLength(1);
    await jsonBody(await put(`/users/${shy.id}`, { private_profile: false }), 200);
  });
});
