// Project and group labels end to end through the REST API: plain fetch with exact statuses and
// bodies, and @gitbeaker/rest (python-gitlab: python-gitlab.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let group: { id: number; full_path: string };
let sub: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let priv: { id: number };
let guest: { id: number; token: string };
let outsider: { id: number; token: string };
let reporter: { id: number; token: string };

const { post, put, del } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
  group = await jsonBody(await post("/groups", { name: "Labels", path: "labels-top", visibility: "public" }), 201);
  sub = await jsonBody(await post("/groups", { name: "Sub", path: "sub", parent_id: group.id, visibility: "public" }), 201);
  project = await jsonBody(await post("/projects", { name: "app", namespace_id: sub.id, visibility: "public" }), 201);
  priv = await jsonBody(await post("/projects", { name: "hidden", visibility: "private" }), 201);
  guest = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
  reporter = await createUserWithToken(s);
  for (const [user, level] of [
    [guest, 10],
    [reporter, 20],
  ] as const) {
    for (const id of [project.id, priv.id]) await jsonBody(await post(`/projects/${id}/members`, { user_id: user.id, access_level: level }), 201);
    await jsonBody(await post(`/groups/${sub.id}/members`, { user_id: user.id, access_level: level }), 201);
  }
}, 60_000);
afterAll(() => s?.destroy());

describe("project labels", () => {
  it("creates labels with GitLab's fields, colour names as hex and text_color by contrast", async () => {
    const input = { name: "bug", color: "#d9534f", description: "Something <broken>", priority: 1 };
    const bug = await jsonBody(await post(`/projects/${project.id}/labels`, input), 201);
    expect(bug).toEqual({
      id: expect.any(Number),
      name: "bug",
      description: "Something <broken>",
      description_html: "Something &#60;broken&#62;",
      text_color: "#FFFFFF",
      color: "#d9534f",
      subscribed: false,
      priority: 1,
      is_project_label: true,
    });
    const light = await jsonBody(await post(`/projects/${encodeURIComponent(project.path_with_namespace)}/labels`, { name: "docs", color: "yellow" }), 201);
    expect(light).toMatchObject({ color: "#FFFF00", text_color: "#1F1E24", description: null, description_html: "", priority: null });
  });

  it("answers GitLab's errors: missing parameters, invalid colour, taken title, existing label", async () => {
    expect(await jsonBody(await post(`/projects/${project.id}/labels`, {}), 400)).toEqual({ error: "name is missing, color is missing" });
    expect(await jsonBody(await post(`/projects/${project.id}/labels`, { name: "x", color: "blurple" }), 400)).toEqual({
      message: { color: ["must be a valid color code"] },
    });
    expect(await jsonBody(await post(`/projects/${project.id}/labels`, { name: "bug", color: "#fff" }), 409)).toEqual({ message: "Label already exists" });
    expect(await jsonBody(await post(`/projects/${project.id}/labels`, { name: "x".repeat(256), color: "#fff" }), 400)).toEqual({
      message: { title: ["is too long (maximum is 255 characters)"] },
    });
    expect(await jsonBody(await put(`/projects/${project.id}/labels/docs`, { new_name: "bug" }), 400)).toEqual({
      message: { title: ["has already been taken"] },
    });
    expect(await jsonBody(await put(`/projects/${project.id}/labels/docs`, {}), 400)).toEqual({
      error: "new_name, color, description, priority are missing, at least one parameter must be provided",
    });
    expect(await jsonBody(await s.api(`/projects/${project.id}/labels/nope`), 404)).toEqual({ message: "404 Label Not Found" });
  });

  it("lists the project's and its groups' labels by title; include_ancestor_groups, search, with_counts and pages change the answer", async () => {
    await jsonBody(await post(`/groups/${sub.id}/labels`, { name: "area", color: "#00f", description: "team area" }), 201);
    await jsonBody(await post(`/groups/${group.id}/labels`, { name: "zz-company", color: "#0f0" }), 201);
    const all = await jsonBody(await s.api(`/projects/${project.id}/labels`), 200);
    expect(all.map((l: { name: string }) => l.name)).toEqual(["area", "bug", "docs", "zz-company"]);
    expect(all.map((l: { is_project_label: boolean }) => l.is_project_label)).toEqual([false, true, true, false]);
    expect(all[0]).not.toHaveProperty("open_issues_count");
    const own = await jsonBody(await s.api(`/projects/${project.id}/labels?include_ancestor_groups=false`), 200);
    expect(own.map((l: { name: string }) => l.name)).toEqual(["bug", "docs"]);
    expect((await jsonBody(await s.api(`/projects/${project.id}/labels?search=area`), 200)).map((l: { name: string }) => l.name)).toEqual(["area"]);
    expect((await jsonBody(await s.api(`/projects/${project.id}/labels?search=broken`), 200)).map((l: { name: string }) => l.name)).toEqual(["bug"]);
    const counted = await jsonBody(await s.api(`/projects/${project.id}/labels?with_counts=true&search=bug`), 200);
    expect(counted[0]).toMatchObject({ open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 });
    const page = await s.api(`/projects/${project.id}/labels?per_page=3&page=2`);
    expect((await jsonBody(page, 200)).map((l: { name: string }) => l.name)).toEqual(["zz-company"]);
    expect(page.headers.get("x-total")).toBe("4");
    expect(page.headers.get("x-total-pages")).toBe("2");
    expect(page.headers.get("x-page")).toBe("2");
    expect(page.headers.get("x-prev-page")).toBe("1");
  });

  it("gets by id or title (URL-encoded), updates with new_name and priority, deletes", async () => {
    const created = await jsonBody(await post(`/projects/${project.id}/labels`, { name: "needs/review", color: "#123456" }), 201);
    expect((await jsonBody(await s.api(`/projects/${project.id}/labels/${encodeURIComponent("needs/review")}`), 200)).id).toBe(created.id);
    const updated = await jsonBody(await put(`/projects/${project.id}/labels/${created.id}`, { new_name: "reviewed", color: "red", priority: 5 }), 200);
    expect(updated).toMatchObject({ id: created.id, name: "reviewed", color: "#FF0000", priority: 5 });
    expect((await jsonBody(await put(`/projects/${project.id}/labels/reviewed`, { priority: null }), 200)).priority).toBeNull();
    // The deprecated form with the label in `name` (python-gitlab saves labels this way).
    expect((await jsonBody(await put(`/projects/${project.id}/labels`, { name: "reviewed", description: "via name" }), 200)).description).toBe("via name");
    // Group labels are not the project's to change.
    expect(await jsonBody(await put(`/projects/${project.id}/labels/area`, { color: "#000" }), 404)).toEqual({ message: "404 Label Not Found" });
    expect((await del(`/projects/${project.id}/labels/reviewed`)).status).toBe(204);
    expect((await s.api(`/projects/${project.id}/labels/reviewed`)).status).toBe(404);
    expect(await jsonBody(await del(`/projects/${project.id}/labels`), 400)).toEqual({ error: "name is missing" });
  });

  it("subscribes and unsubscribes: 201 with the label, 304 when nothing changes, 401 anonymously", async () => {
    const sub1 = await jsonBody(await post(`/projects/${project.id}/labels/area/subscribe`, {}, guest.token), 201);
    expect(sub1).toMatchObject({ name: "area", subscribed: true, is_project_label: false });
    expect((await post(`/projects/${project.id}/labels/area/subscribe`, {}, guest.token)).status).toBe(304);
    const seen = await jsonBody(await s.api(`/projects/${project.id}/labels/area`, { token: guest.token }), 200);
    expect(seen.subscribed).toBe(true);
    expect((await jsonBody(await s.api(`/projects/${project.id}/labels/area`), 200)).subscribed).toBe(false);
    expect((await jsonBody(await post(`/projects/${project.id}/labels/area/unsubscribe`, {}, guest.token), 201)).subscribed).toBe(false);
    expect((await post(`/projects/${project.id}/labels/area/unsubscribe`, {}, guest.token)).status).toBe(304);
    expect(await jsonBody(await post(`/projects/${project.id}/labels/area/subscribe`, {}, null), 401)).toEqual({ message: "401 Unauthorized" });
  });

  it("follows visibility: private projects are 404 for anonymous and outsiders, guests read but get 403 on writes, reporters write", async () => {
    await jsonBody(await post(`/projects/${priv.id}/labels`, { name: "secret", color: "#000" }), 201);
    expect(await jsonBody(await s.api(`/projects/${priv.id}/labels`, { token: null }), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await s.api(`/projects/${priv.id}/labels`, { token: outsider.token }), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await s.api(`/projects/${priv.id}/labels/secret`, { token: outsider.token }), 404)).toEqual({ message: "404 Project Not Found" });
    expect((await jsonBody(await s.api(`/projects/${priv.id}/labels`, { token: guest.token }), 200)).map((l: { name: string }) => l.name)).toEqual(["secret"]);
    expect(await jsonBody(await post(`/projects/${priv.id}/labels`, { name: "g", color: "#000" }, guest.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await put(`/projects/${priv.id}/labels/secret`, { color: "#fff" }, guest.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await del(`/projects/${priv.id}/labels/secret`, guest.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await post(`/projects/${priv.id}/labels`, { name: "g", color: "#000" }, outsider.token), 404)).toEqual({
      message: "404 Project Not Found",
    });
    expect(await jsonBody(await post(`/projects/${project.id}/labels`, { name: "anon", color: "#000" }, null), 401)).toEqual({ message: "401 Unauthorized" });
    expect((await jsonBody(await post(`/projects/${priv.id}/labels`, { name: "rep", color: "#000" }, reporter.token), 201)).name).toBe("rep");
  });
});

describe("group labels", () => {
  it("lists a group's and its ancestors' labels, creates, updates, deletes with GitLab's group entity", async () => {
    const names = async (q = "") => (await jsonBody(await s.api(`/groups/${sub.id}/labels${q}`), 200)).map((l: { name: string }) => l.name);
    expect(await names()).toEqual(["area", "zz-company"]);
    expect(await names("?include_ancestor_groups=false")).toEqual(["area"]);
    const created = await jsonBody(await post(`/groups/${encodeURIComponent(sub.full_path)}/labels`, { name: "team", color: "#abcdef" }), 201);
    expect(created).toEqual({
      id: expect.any(Number),
      name: "team",
      description: null,
      description_html: "",
      text_color: "#1F1E24",
      color: "#abcdef",
      subscribed: false,
    });
    expect(await jsonBody(await put(`/groups/${sub.id}/labels/team`, { priority: 1 }), 400)).toEqual({
      error: "new_name, color, description are missing, at least one parameter must be provided",
    });
    expect((await jsonBody(await put(`/groups/${sub.id}/labels/team`, { new_name: "squad" }), 200)).name).toBe("squad");
    expect(await jsonBody(await put(`/groups/${sub.id}/labels/zz-company`, { color: "#000" }), 404)).toEqual({ message: "404 Label Not Found" });
    expect(await jsonBody(await post(`/groups/${sub.id}/labels`, { name: "x", color: "#000" }, guest.token), 403)).toEqual({ message: "403 Forbidden" });
    expect((await jsonBody(await post(`/groups/${sub.id}/labels`, { name: "by-reporter", color: "#000" }, reporter.token), 201)).name).toBe("by-reporter");
    expect((await jsonBody(await post(`/groups/${sub.id}/labels/squad/subscribe`, {}), 201)).subscribed).toBe(true);
    expect((await del(`/groups/${sub.id}/labels/squad`)).status).toBe(204);
    expect((await del(`/groups/${sub.id}/labels?name=by-reporter`)).status).toBe(204);
    expect(await names()).toEqual(["area", "zz-company"]);
  });

  it("hides a private group's labels from outsiders", async () => {
    const hidden = await jsonBody(await post("/groups", { name: "Hidden", path: "hidden-labels", visibility: "private" }), 201);
    await jsonBody(await post(`/groups/${hidden.id}/labels`, { name: "h", color: "#000" }), 201);
    expect(await jsonBody(await s.api(`/groups/${hidden.id}/labels`, { token: null }), 404)).toEqual({ message: "404 Group Not Found" });
    expect(await jsonBody(await s.api(`/groups/${hidden.id}/labels`, { token: outsider.token }), 404)).toEqual({ message: "404 Group Not Found" });
  });
});

describe("promote", () => {
  it("promotes a project label to the project's group (GroupLabel entity), 400 outside a group, 403 without a group role", async () => {
    await jsonBody(await post(`/projects/${project.id}/labels`, { name: "to-promote", color: "#654321", priority: 7 }), 201);
    const promoted = await jsonBody(await put(`/projects/${project.id}/labels/to-promote/promote`, {}), 200);
    expect(promoted).toEqual({
      id: expect.any(Number),
      name: "to-promote",
      description: null,
      description_html: "",
      text_color: "#FFFFFF",
      color: "#654321",
      subscribed: false,
    });
    const seen = await jsonBody(await s.api(`/projects/${project.id}/labels/to-promote`), 200);
    expect(seen).toMatchObject({ id: promoted.id, is_project_label: false, priority: 7 });
    expect((await jsonBody(await s.api(`/groups/${sub.id}/labels/to-promote`), 200)).id).toBe(promoted.id);
    await jsonBody(await post(`/projects/${priv.id}/labels`, { name: "lonely", color: "#000" }), 201);
    expect(await jsonBody(await put(`/projects/${priv.id}/labels/lonely/promote`, {}), 400)).toEqual({
      message: "Failed to promote project label to group label",
    });
    const inProjectOnly = await createUserWithToken(s);
    await jsonBody(await post(`/projects/${project.id}/members`, { user_id: inProjectOnly.id, access_level: 40 }), 201);
    await jsonBody(await post(`/projects/${project.id}/labels`, { name: "stays", color: "#000" }), 201);
    expect(await jsonBody(await put(`/projects/${project.id}/labels/stays/promote`, {}, inProjectOnly.token), 403)).toEqual({ message: "403 Forbidden" });
  });
});

describe("@gitbeaker/rest", () => {
  it("manages project and group labels", async () => {
    const api = s.gitlab();
    const created = await api.ProjectLabels.create(project.id, "gitbeaker", "#336699", { description: "from gitbeaker" });
    expect(created).toMatchObject({ name: "gitbeaker", color: "#336699", is_project_label: true });
    const all = await api.ProjectLabels.all(project.id, { includeAncestorGroups: false });
    expect(all.map((l) => l.name)).toContain("gitbeaker");
    const shown = await api.ProjectLabels.show(project.id, "gitbeaker");
    expect(shown.id).toBe(created.id);
    expect(await api.ProjectLabels.edit(project.id, created.id, { newName: "gitbeaker2" })).toMatchObject({ name: "gitbeaker2" });
    expect(await api.ProjectLabels.edit(project.id, created.id, { color: "#000000" })).toMatchObject({ color: "#000000", text_color: "#FFFFFF" });
    // Not ProjectLabels.subscribe: gitbeaker 43 posts it to …/issues/:labelId/subscribe (an issue, not the label).
    await api.ProjectLabels.remove(project.id, created.id);
    await expect(api.ProjectLabels.show(project.id, created.id)).rejects.toThrow();
    const g = await api.GroupLabels.create(group.id, "gb-group", "#ffffff");
    expect((await api.GroupLabels.all(group.id)).map((l) => l.name)).toContain("gb-group");
    await api.GroupLabels.remove(group.id, g.id);
  });
});
