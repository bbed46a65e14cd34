// Project and group milestones end to end through the REST API: plain fetch with exact statuses
// and bodies, and @gitbeaker/rest (python-gitlab: python-gitlab.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let priv: { id: number };
let guest: { id: number; token: string };
let outsider: { id: number; token: string };

const { post, put } = jsonRequests(() => s);
const titles = async (path: string, token?: string | null) => (await jsonBody(await s.api(path, { token }), 200)).map((m: { title: string }) => m.title);

beforeAll(async () => {
  s = await startTestStack();
  group = await jsonBody(await post("/groups", { name: "Plans", path: "plans", visibility: "public" }), 201);
  project = await jsonBody(await post("/projects", { name: "tracker", namespace_id: group.id, visibility: "public" }), 201);
  priv = await jsonBody(await post("/projects", { name: "secret-plans", visibility: "private" }), 201);
  guest = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
  await jsonBody(await post(`/projects/${priv.id}/members`, { user_id: guest.id, access_level: 10 }), 201);
}, 60_000);
afterAll(() => s?.destroy());

describe("project milestones", () => {
  it("creates with GitLab's entity and per-project iids", async () => {
    const input = { title: "v1.0", description: "first", start_date: "2020-01-01", due_date: "2020-02-01" };
    const m = await jsonBody(await post(`/projects/${project.id}/milestones`, input), 201);
    expect(m).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: project.id,
      title: "v1.0",
      description: "first",
      state: "active",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      due_date: "2020-02-01",
      start_date: "2020-01-01",
      expired: true,
      web_url: `${s.url}/${project.path_with_namespace}/-/milestones/1`,
    });
    const next = await jsonBody(await post(`/projects/${project.id}/milestones`, { title: "v2.0", due_date: "2999-01-01" }), 201);
    expect(next).toMatchObject({ iid: 2, expired: false, description: null, start_date: null });
    expect((await jsonBody(await post(`/projects/${project.id}/milestones`, { title: "backlog" }), 201)).expired).toBe(false);
  });

  it("answers GitLab's errors", async () => {
    expect(await jsonBody(await post(`/projects/${project.id}/milestones`, {}), 400)).toEqual({ error: "title is missing" });
    expect(await jsonBody(await post(`/projects/${project.id}/milestones`, { title: "bad", start_date: "2030-02-01", due_date: "2030-01-01" }), 400)).toEqual({
      message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}',
    });
    expect(await jsonBody(await post(`/projects/${project.id}/milestones`, { title: "v1.0" }), 400)).toEqual({
      message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}',
    });
    expect(await jsonBody(await s.api(`/projects/${project.id}/milestones/999999`), 404)).toEqual({ message: "404 Not found" });
    const [m] = await jsonBody(await s.api(`/projects/${project.id}/milestones?title=v1.0`), 200);
    expect(await jsonBody(await put(`/projects/${project.id}/milestones/${m.id}`, {}), 400)).toEqual({
      error: "title, description, start_date, due_date, state_event are missing, at least one parameter must be provided",
    });
    expect(await jsonBody(await put(`/projects/${project.id}/milestones/${m.id}`, { state_event: "finish" }), 400)).toEqual({
      error: "state_event does not have a valid value",
    });
  });

  it("filters by state, iids, title, search, include_ancestors; orders by due date then newest; pages", async () => {
    await jsonBody(await post(`/groups/${group.id}/milestones`, { title: "Q3", description: "quarter plan" }), 201);
    const all = `/projects/${project.id}/milestones`;
    expect(await titles(all)).toEqual(["v1.0", "v2.0", "backlog"]);
    const [backlog] = await jsonBody(await s.api(`${all}?title=backlog`), 200);
    expect((await jsonBody(await put(`${all}/${backlog.id}`, { state_event: "close" }), 200)).state).toBe("closed");
    expect(await titles(`${all}?state=active`)).toEqual(["v1.0", "v2.0"]);
    expect(await titles(`${all}?state=closed`)).toEqual(["backlog"]);
    expect(await titles(`${all}?iids[]=2&iids[]=3`)).toEqual(["v2.0", "backlog"]);
    expect(await titles(`${all}?search=first`)).toEqual(["v1.0"]);
    expect(await titles(`${all}?include_ancestors=true`)).toEqual(["v1.0", "v2.0", "Q3", "backlog"]);
    expect(await titles(`${all}?include_parent_milestones=true&search=plan`)).toEqual(["Q3"]);
    expect(await jsonBody(await s.api(`${all}?include_ancestors=true&include_parent_milestones=true`), 400)).toEqual({
      error: "include_ancestors, include_parent_milestones are mutually exclusive",
    });
    const page = await s.api(`${all}?per_page=2&page=2`);
    expect((await jsonBody(page, 200)).map((m: { title: string }) => m.title)).toEqual(["backlog"]);
    expect(page.headers.get("x-total")).toBe("3");
    expect(page.headers.get("x-next-page")).toBe("");
    expect((await jsonBody(await put(`${all}/${backlog.id}`, { state_event: "activate", title: "icebox" }), 200)).state).toBe("active");
  });

  it("updates dates (null clears) and deletes", async () => {
    const m = await jsonBody(await post(`/projects/${project.id}/milestones`, { title: "dated", due_date: "2031-01-01" }), 201);
    expect((await jsonBody(await put(`/projects/${project.id}/milestones/${m.id}`, { due_date: null }), 200)).due_date).toBeNull();
    expect((await s.api(`/projects/${project.id}/milestones/${m.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await s.api(`/projects/${project.id}/milestones/${m.id}`)).status).toBe(404);
  });

  it("follows visibility: 404 for anonymous and outsiders on a private project, 403 for a guest's writes", async () => {
    const m = await jsonBody(await post(`/projects/${priv.id}/milestones`, { title: "hidden" }), 201);
    expect(await jsonBody(await s.api(`/projects/${priv.id}/milestones`, { token: null }), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await s.api(`/projects/${priv.id}/milestones/${m.id}`, { token: outsider.token }), 404)).toEqual({
      message: "404 Project Not Found",
    });
    expect(await titles(`/projects/${priv.id}/milestones`, guest.token)).toEqual(["hidden"]);
    expect(await jsonBody(await post(`/projects/${priv.id}/milestones`, { title: "g" }, guest.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await put(`/projects/${priv.id}/milestones/${m.id}`, { title: "g" }, guest.token), 403)).toEqual({ message: "403 Forbidden" });
    const deleted = await s.api(`/projects/${priv.id}/milestones/${m.id}`, { method: "DELETE", token: guest.token });
    expect(await jsonBody(deleted, 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await post(`/projects/${project.id}/milestones`, { title: "anon" }, null), 401)).toEqual({ message: "401 Unauthorized" });
  });
});

describe("group milestones", () => {
  it("creates, lists, updates and deletes with group_id and the group's web_url", async () => {
    const m = await jsonBody(await post(`/groups/${group.id}/milestones`, { title: "Q4" }), 201);
    expect(m).toMatchObject({ iid: 2, group_id: group.id, web_url: `${s.url}/groups/${group.full_path}/-/milestones/2` });
    expect(m).not.toHaveProperty("project_id");
    expect(await titles(`/groups/${group.id}/milestones`)).toEqual(["Q4", "Q3"]);
    expect((await jsonBody(await put(`/groups/${group.id}/milestones/${m.id}`, { description: "later" }), 200)).description).toBe("later");
    expect((await s.api(`/groups/${group.id}/milestones/${m.id}`, { method: "DELETE" })).status).toBe(204);
    const hidden = await jsonBody(await post("/groups", { name: "Hidden plans", path: "hidden-plans", visibility: "private" }), 201);
    expect(await jsonBody(await s.api(`/groups/${hidden.id}/milestones`, { token: null }), 404)).toEqual({ message: "404 Group Not Found" });
  });
});

describe("@gitbeaker/rest", () => {
  it("manages project and group milestones", async () => {
    const api = s.gitlab();
    const m = await api.ProjectMilestones.create(project.id, "gitbeaker", { dueDate: "2032-01-01" });
    expect(m).toMatchObject({ title: "gitbeaker", due_date: "2032-01-01", state: "active" });
    expect((await api.ProjectMilestones.all(project.id, { state: "active", search: "gitbeaker" })).map((x) => x.title)).toEqual(["gitbeaker"]);
    expect((await api.ProjectMilestones.show(project.id, m.id)).iid).toBe(m.iid);
    expect((await api.ProjectMilestones.edit(project.id, m.id, { stateEvent: "close" })).state).toBe("closed");
    await api.ProjectMilestones.remove(project.id, m.id);
    const g = await api.GroupMilestones.create(group.id, "gb-group");
    expect((await api.GroupMilestones.all(group.id)).map((x) => x.title)).toContain("gb-group");
    await api.GroupMilestones.remove(group.id, g.id);
  });
});
