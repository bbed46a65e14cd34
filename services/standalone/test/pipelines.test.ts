import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ciProject, member } from "./ci-fixture.ts";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let project: Awaited<ReturnType<typeof ciProject>>;
let users: Record<"guest" | "reporter" | "developer" | "maintainer" | "outsider", { id: number; token: string }>;

beforeAll(async () => {
  s = await startTestStack();
  project = await ciProject(s, "ci-app");
  const add = (level: number) => member(s, project.id, level, () => createUserWithToken(s));
  users = { guest: await add(10), reporter: await add(20), developer: await add(30), maintainer: await add(40), outsider: await createUserWithToken(s) };
});
afterAll(() => s?.destroy());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });

describe("pipelines", () => {
  it("answers empty lists, GitLab's 404 for unknown pipelines and 403 when the ref has no latest pipeline", async () => {
    const list = await s.api(`/projects/${project.id}/pipelines`);
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total")).toBe("0");
    expect(await list.json()).toEqual([]);
    expect(await json(await s.api(`/projects/${project.id}/pipelines/999999`))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect(await json(await s.api(`/projects/${project.id}/pipelines/latest`))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect(await json(await s.api(`/projects/${project.id}/pipelines/abc`))).toEqual({
      status: 400,
      body: { error: "pipeline_id does not have a valid value" },
    });
    expect(await json(await s.api(`/projects/${project.id}/pipelines?status=done`))).toEqual({
      status: 400,
      body: { error: "status does not have a valid value" },
    });
  });

  it("creates a pipeline for Developers (201), refusing a missing or unknown ref and lower roles", async () => {
    const missing = await s.api(`/projects/${project.id}/pipeline`, { method: "POST", json: {}, token: users.developer.token });
    expect(await json(missing)).toEqual({ status: 400, body: { error: "ref is missing" } });
    const unknown = await s.api(`/projects/${project.id}/pipeline`, { method: "POST", json: { ref: "nope" }, token: users.developer.token });
    expect(await json(unknown)).toEqual({ status: 400, body: { message: { base: ["Reference not found"] } } });
    const reporter = await s.api(`/projects/${project.id}/pipeline`, { method: "POST", json: { ref: "main" }, token: users.reporter.token });
    expect(reporter.status).toBe(403);
    expect((await s.api(`/projects/${project.id}/pipeline`, { method: "POST", json: { ref: "main" }, token: null })).status).toBe(401);

    const created = await s
      .gitlab(users.developer.token)
      .Pipelines.create(project.id, "main", { variables: [{ key: "DEPLOY", value: "no", variable_type: "env_var" }] });
    expect(created).toMatchObject({
      iid: 1,
      project_id: project.id,
      sha: project.sha,
      ref: "main",
      status: "pending",
      source: "api",
      web_url: `${s.url}/${project.path}/-/pipelines/${created.id}`,
      before_sha: "0".repeat(40),
      tag: false,
      yaml_errors: null,
      user: { id: users.developer.id },
      detailed_status: { group: "pending", text: "Pending", details_path: `/${project.path}/-/pipelines/${created.id}` },
    });
  });

  it("lists, filters and shows pipelines with @gitbeaker/rest", async () => {
    const api = s.gitlab();
    const second = await api.Pipelines.create(project.id, "main");
    const all = await api.Pipelines.all(project.id);
    expect(all.map((p) => p.iid)).toEqual([2, 1]);
    expect(Object.keys(all[0]!).sort()).toEqual(["created_at", "id", "iid", "name", "project_id", "ref", "sha", "source", "status", "updated_at", "web_url"]);
    expect((await api.Pipelines.all(project.id, { username: "root" })).map((p) => p.id)).toEqual([second.id]);
    expect(await api.Pipelines.all(project.id, { username: "nobody-has-this-name" })).toEqual([]);
    expect((await api.Pipelines.all(project.id, { sort: "asc", ref: "main", status: "pending", source: "api" })).map((p) => p.iid)).toEqual([1, 2]);
    expect((await api.Pipelines.all(project.id, { scope: "branches" })).map((p) => p.id)).toEqual([second.id]);
    expect(await api.Pipelines.all(project.id, { scope: "tags" })).toEqual([]);
    const page = await s.api(`/projects/${project.id}/pipelines?per_page=1&page=2`);
    expect(page.headers.get("x-total")).toBe("2");
    expect(((await page.json()) as { iid: number }[]).map((p) => p.iid)).toEqual([1]);

    expect(await api.Pipelines.show(project.id, second.id)).toMatchObject({
      id: second.id,
      iid: 2,
      user: { username: "root" },
      coverage: null,
      archived: false,
    });
    expect(await api.Pipelines.showLatest(project.id)).toMatchObject({ id: second.id });
    expect((await s.api(`/projects/${project.id}/pipelines/latest?ref=nope`)).status).toBe(403);
  });

  it("shows the newest pipeline and its status on the commit", async () => {
    const commit = await s.gitlab().Commits.show(project.id, project.sha);
    const newest = (await s.gitlab().Pipelines.all(project.id))[0]!;
    expect(commit.status).toBe("pending");
    expect(commit.last_pipeline).toEqual({
      id: newest.id,
      iid: newest.iid,
      project_id: project.id,
      sha: project.sha,
      ref: "main",
      status: "pending",
      source: "api",
      created_at: newest.created_at,
      updated_at: newest.updated_at,
      web_url: newest.web_url,
    });
  });

  it("lets Reporters read a private project's pipelines, not Guests, and hides it from outsiders", async () => {
    const path = `/projects/${project.id}/pipelines`;
    expect((await s.api(path, { token: users.reporter.token })).status).toBe(200);
    expect(await json(await s.api(path, { token: users.guest.token }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect(await json(await s.api(path, { token: users.outsider.token }))).toEqual({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await s.api(path, { token: null })).status).toBe(404);
  });

  it("lets anyone read a public project's pipelines", async () => {
    const open = await ciProject(s, "ci-open", "public");
    await s.gitlab().Pipelines.create(open.id, "main");
    const anonymous = await s.api(`/projects/${open.id}/pipelines`, { token: null });
    expect(anonymous.status).toBe(200);
    expect(((await anonymous.json()) as unknown[]).length).toBe(1);
  });

  it("deletes a pipeline with its jobs for Owners only", async () => {
    const api = s.gitlab();
    const doomed = await api.Pipelines.create(project.id, "main");
    const path = `/projects/${project.id}/pipelines/${doomed.id}`;
    expect((await s.api(path, { method: "DELETE", token: users.maintainer.token })).status).toBe(403);
    const deleted = await s.api(path, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect(await json(await s.api(path))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect(await json(await s.api(`${path}/jobs`))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect((await api.Jobs.all(project.id)).every((j) => j.pipeline.id !== doomed.id)).toBe(true);
  });
});
