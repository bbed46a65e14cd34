// GET/PUT /application/settings: the settings Quarry honours, stored by identity-service and applied
// by every service at once (gateway, identity, collab, repo, hook and mirror services). This stack
// does not pin local requests (QUARRY_ALLOW_LOCAL_REQUESTS), so the application setting decides.
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack(undefined, { allowLocalRequests: false });
}, 60_000);
afterAll(() => s?.destroy());

const put = (json: Record<string, unknown>, token?: string) => s.api("/application/settings", { method: "PUT", json, token });

const HONOURED = [
  "allow_local_requests_from_web_hooks_and_services",
  "can_create_group",
  "created_at",
  "default_branch_name",
  "default_branch_protection",
  "default_branch_protection_defaults",
  "default_group_visibility",
  "default_project_visibility",
  "default_projects_limit",
  "id",
  "max_attachment_size",
  "notes_create_limit",
  "updated_at",
  "user_default_external",
];

describe("GET/PUT /application/settings", () => {
  it("shows administrators GitLab's defaults and takes changes from JSON, forms and the query string", async () => {
    const settings = await jsonBody(await s.api("/application/settings"), 200);
    expect(Object.keys(settings).sort()).toEqual(HONOURED);
    expect(settings).toMatchObject({
      id: 1,
      default_project_visibility: "private",
      default_group_visibility: "private",
      default_branch_name: null,
      default_branch_protection: 2,
      default_branch_protection_defaults: {
        allowed_to_push: [{ access_level: 40 }],
        allow_force_push: false,
        allowed_to_merge: [{ access_level: 40 }],
        developer_can_initial_push: false,
      },
      notes_create_limit: 300,
      allow_local_requests_from_web_hooks_and_services: false,
      max_attachment_size: 100,
      user_default_external: false,
      can_create_group: true,
      default_projects_limit: 100000,
    });
    const changed = await jsonBody(await put({ default_projects_limit: 50, not_a_setting: "ignored" }), 200);
    expect(changed).toMatchObject({ default_projects_limit: 50 });
    expect(changed).not.toHaveProperty("not_a_setting");
    const form = await s.api("/application/settings", { method: "PUT", body: new URLSearchParams({ user_default_external: "true" }) });
    expect(await jsonBody(form, 200)).toMatchObject({ user_default_external: true, default_projects_limit: 50 });
    const query = await s.api("/application/settings?user_default_external=false&default_projects_limit=100000", { method: "PUT" });
    expect(await jsonBody(query, 200)).toMatchObject({ user_default_external: false, default_projects_limit: 100000 });
    expect(await jsonBody(await s.api("/application/settings"), 200)).toMatchObject({ user_default_external: false, default_projects_limit: 100000 });
  });

  it("answers 401 anonymously, 403 to non-administrators, and 400 with GitLab's bodies for bad values, changing nothing", async () => {
    const user = await createUserWithToken(s);
    expect(await jsonBody(await s.api("/application/settings", { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await s.api("/application/settings", { token: user.token }), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await put({ notes_create_limit: 1 }, user.token), 403)).toEqual({ message: "403 Forbidden" });
    const before = await jsonBody(await s.api("/application/settings"), 200);
    expect(await jsonBody(await put({ notes_create_limit: 1, default_project_visibility: "secret" }), 400)).toEqual({
      error: "default_project_visibility does not have a valid value",
    });
    expect(await jsonBody(await put({ default_branch_protection: 5 }), 400)).toEqual({ error: "default_branch_protection does not have a valid value" });
    expect(await jsonBody(await put({ notes_create_limit: -1 }), 400)).toEqual({ message: { notes_create_limit: ["must be greater than or equal to 0"] } });
    expect(await jsonBody(await put({ max_attachment_size: "big" }), 400)).toEqual({ error: "max_attachment_size is invalid" });
    expect(await jsonBody(await put({ default_branch_name: "bad..name" }), 400)).toEqual({ message: { default_branch_name: ["is not a valid branch name"] } });
    expect(await jsonBody(await s.api("/application/settings"), 200)).toEqual(before);
  });

  it("gives new projects, groups and users the instance defaults at once", async () => {
    await jsonBody(
      await put({ default_project_visibility: "internal", default_group_visibility: "internal", default_branch_name: "trunk", can_create_group: false }),
      200,
    );
    const project = await jsonBody(await s.api("/projects", { method: "POST", json: { name: `defaults-${Date.now()}`, initialize_with_readme: true } }), 201);
    expect(project).toMatchObject({ visibility: "internal", default_branch: "trunk" });
    expect((await jsonBody(await s.api(`/projects/${project.id}/repository/branches`), 200)).map((b: { name: string }) => b.name)).toEqual(["trunk"]);
    const group = await jsonBody(await s.api("/groups", { method: "POST", json: { name: "Defaults", path: `defaults-${Date.now()}` } }), 201);
    expect(group.visibility).toBe("internal");
    const user = await createUserWithToken(s);
    expect(await jsonBody(await s.api(`/users/${user.id}`), 200)).toMatchObject({ can_create_group: false });
    await jsonBody(
      await put({ default_project_visibility: "private", default_group_visibility: "private", default_branch_name: "", can_create_group: true }),
      200,
    );
    const after = await jsonBody(await s.api("/projects", { method: "POST", json: { name: `after-${Date.now()}` } }), 201);
    expect(after).toMatchObject({ visibility: "private", default_branch: "main" });
  });

  it("protects new default branches as default_branch_protection says", async () => {
    const protectedBranches = async () => {
      const p = await jsonBody(await s.api("/projects", { method: "POST", json: { name: `prot-${Date.now()}`, initialize_with_readme: true } }), 201);
      return jsonBody(await s.api(`/projects/${p.id}/protected_branches`), 200);
    };
    await jsonBody(await put({ default_branch_protection: 0 }), 200);
    await waitFor(async () => (await protectedBranches()).length === 0, { message: "unprotected default branch" });
    const settings = await jsonBody(await put({ default_branch_protection: 3 }), 200);
    expect(settings.default_branch_protection_defaults).toMatchObject({ allowed_to_push: [{ access_level: 40 }], allowed_to_merge: [{ access_level: 30 }] });
    const rule = await waitFor(async () => (await protectedBranches())[0], { message: "protected default branch" });
    expect(rule).toMatchObject({ name: "main", push_access_levels: [{ access_level: 40 }], merge_access_levels: [{ access_level: 30 }] });
    await jsonBody(await put({ default_branch_protection: 2 }), 200);
  });

  it("limits notes per minute with notes_create_limit", async () => {
    const author = await createUserWithToken(s);
    const project = await jsonBody(await s.api("/projects", { method: "POST", json: { name: `notes-${Date.now()}`, visibility: "public" } }), 201);
    const issue = await jsonBody(await s.api(`/projects/${project.id}/issues`, { method: "POST", json: { title: "limits" } }), 201);
    const note = () => s.api(`/projects/${project.id}/issues/${issue.iid}/notes`, { method: "POST", json: { body: "hi" }, token: author.token });
    await jsonBody(await put({ notes_create_limit: 2 }), 200);
    await waitFor(async () => (await note()).status === 429, { message: "notes_create_limit applied" });
    expect(await jsonBody(await note(), 429)).toEqual({ message: { error: "This endpoint has been requested too many times. Try again later." } });
    await jsonBody(await put({ notes_create_limit: 0 }), 200);
    await waitFor(async () => (await note()).status === 201, { message: "no limit" });
    await jsonBody(await put({ notes_create_limit: 300 }), 200);
  });

  it("limits Markdown uploads with max_attachment_size (MB)", async () => {
    const project = await jsonBody(await s.api("/projects", { method: "POST", json: { name: `uploads-${Date.now()}` } }), 201);
    const upload = () => {
      const f = new FormData();
      f.append("file", new Blob([Buffer.alloc(1024 * 1024 + 10, 1)]), "big.bin");
      return s.api(`/projects/${project.id}/uploads`, { method: "POST", body: f });
    };
    await jsonBody(await put({ max_attachment_size: 1 }), 200);
    expect(await jsonBody(await upload(), 413)).toEqual({ message: "413 Request Entity Too Large" });
    await jsonBody(await put({ max_attachment_size: 2 }), 200);
    expect((await jsonBody(await upload(), 201)).alt).toBe("big");
    await jsonBody(await put({ max_attachment_size: 100 }), 200);
  });

  it("lets webhooks and mirrors reach local addresses only while allow_local_requests_from_web_hooks_and_services is on", async () => {
    const project = await jsonBody(await s.api("/projects", { method: "POST", json: { name: `local-${Date.now()}` } }), 201);
    const hook = () => s.api(`/projects/${project.id}/hooks`, { method: "POST", json: { url: "http://127.0.0.1:9/hook" } });
    const mirror = () => s.api(`/projects/${project.id}/remote_mirrors`, { method: "POST", json: { url: "http://127.0.0.1:9/x.git" } });
    expect(await jsonBody(await hook(), 400)).toEqual({ message: { url: ["is blocked: Requests to localhost are not allowed"] } });
    expect(await jsonBody(await mirror(), 400)).toEqual({ message: { url: ["is blocked: Requests to localhost are not allowed"] } });
    await jsonBody(await put({ allow_local_requests_from_web_hooks_and_services: true }), 200);
    await waitFor(async () => (await hook()).status === 201, { message: "hook to a local address accepted" });
    await waitFor(async () => (await mirror()).status === 201, { message: "mirror to a local address accepted" });
    await jsonBody(await put({ allow_local_requests_from_web_hooks_and_services: false }), 200);
    await waitFor(async () => (await hook()).status === 400, { message: "local addresses refused again" });
    await waitFor(async () => (await mirror()).status === 400, { message: "mirror refused again" });
  });

  it("works through @gitbeaker/rest's ApplicationSettings", async () => {
    const api = s.gitlab();
    expect(await api.ApplicationSettings.show()).toMatchObject({ notes_create_limit: 300 });
    expect(await api.ApplicationSettings.edit({ notesCreateLimit: 120, defaultProjectVisibility: "internal" } as never)).toMatchObject({
      notes_create_limit: 120,
      default_project_visibility: "internal",
    });
    await api.ApplicationSettings.edit({ notesCreateLimit: 300, defaultProjectVisibility: "private" } as never);
  });

  it("works through python-gitlab's gl.settings", async () => {
    expect(await runPythonScript(s, "application_settings")).toEqual({
      before: { notes_create_limit: 300, default_branch_protection: 2 },
      saved: { notes_create_limit: 42, default_branch_protection: 1 },
      reread: { notes_create_limit: 42, default_branch_protection: 1 },
      refused: [400, "default_branch_protection does not have a valid value"],
    });
  });
});
