// Project webhooks end to end: the gateway, hook-service's durable delivery from real push events,
// real HTTP receivers on loopback.
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

let s: TestStack;
const receivers: Receiver[] = [];
beforeAll(async () => {
  s = await startTestStack(undefined, { hookSettings: { maxAttempts: 3, retryBaseMs: 20, timeoutMs: 3000, pollIntervalMs: 50 } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await s?.destroy();
});

const receiver = async (status = 200) => {
  const r = await startReceiver(status);
  receivers.push(r);
  return r;
};

let seq = 0;
async function createProject(readme = true) {
  const res = await s.api("/projects", { method: "POST", json: { name: `hooked-${seq++}`, initialize_with_readme: readme } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; path_with_namespace: string; web_url: string; default_branch: string };
}

async function commitFile(projectId: number, path: string, branch = "main") {
  const res = await s.api(`/projects/${projectId}/repository/files/${encodeURIComponent(path)}`, {
    method: "POST",
    json: { branch, content: `content of ${path}`, commit_message: `add ${path}` },
  });
  expect(res.status).toBe(201);
}

async function createHook(projectId: number, body: Record<string, unknown>) {
  const res = await s.api(`/projects/${projectId}/hooks`, { method: "POST", json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: number; url: string };
}

/** A recorded delivery (hook event) as the API lists it; the tests match most fields as values. */
interface HookEvent {
  id: number;
  url: string;
  response_status: string;
  execution_duration: unknown;
  request_headers: unknown;
  request_data: unknown;
  response_headers: unknown;
}

const events = async (projectId: number, hookId: number, query = "") => {
  const res = await s.api(`/projects/${projectId}/hooks/${hookId}/events${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as HookEvent[];
};

describe("project hooks CRUD", () => {
  it("creates, shows, lists, updates and deletes a hook; secrets are never returned", async () => {
    const project = await createProject();
    const created = await createHook(project.id, {
      url: "http://127.0.0.1:9/{path}",
      name: "ci",
      description: "notify ci",
      token: "s3cret-token",
      push_events: true,
      tag_push_events: true,
      issues_events: true,
      push_events_branch_filter: "release/*",
      enable_ssl_verification: false,
      custom_headers: [{ key: "X-Custom", value: "hidden-value" }],
      url_variables: [{ key: "path", value: "hidden-path" }],
      custom_webhook_template: '{"ref":"{{ref}}"}',
    });
    expect(created).toEqual({
      id: expect.any(Number),
      url: "http://127.0.0.1:9/{path}",
      name: "ci",
      description: "notify ci",
      created_at: expect.any(String),
      push_events: true,
      tag_push_events: true,
      merge_requests_events: false,
      repository_update_events: false,
      enable_ssl_verification: false,
      alert_status: "executable",
      disabled_until: null,
      url_variables: [{ key: "path" }],
      push_events_branch_filter: "release/*",
      branch_filter_strategy: "wildcard",
      custom_webhook_template: '{"ref":"{{ref}}"}',
      custom_headers: [{ key: "X-Custom" }],
      project_id: project.id,
      issues_events: true,
      confidential_issues_events: false,
      note_events: false,
      confidential_note_events: false,
      pipeline_events: false,
      wiki_page_events: false,
      job_events: false,
      deployment_events: false,
      feature_flag_events: false,
      releases_events: false,
      milestone_events: false,
      resource_access_token_events: false,
      emoji_events: false,
    });
    expect(JSON.stringify(created)).not.toMatch(/s3cret|hidden/);

    const shown = await s.api(`/projects/${project.id}/hooks/${created.id}`);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toEqual(created);

    const list = await s.api(`/projects/${project.id}/hooks`);
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total")).toBe("1");
    expect(await list.json()).toEqual([created]);

    const put = await s.api(`/projects/${project.id}/hooks/${created.id}`, {
      method: "PUT",
      json: { name: "renamed", issues_events: false, branch_filter_strategy: "all_branches" },
    });
    expect(put.status).toBe(200);
    const updated = (await put.json()) as Record<string, unknown>;
    expect(updated).toMatchObject({
      name: "renamed",
      issues_events: false,
      push_events: true,
      branch_filter_strategy: "all_branches",
      push_events_branch_filter: null,
    });
    expect(updated.url_variables).toEqual([{ key: "path" }]);
    expect(updated.custom_headers).toEqual([{ key: "X-Custom" }]);
    const merged = await s.api(`/projects/${project.id}/hooks/${created.id}`, { method: "PUT", json: { custom_headers: [{ key: "X-Second", value: "v2" }] } });
    expect(((await merged.json()) as { custom_headers: unknown }).custom_headers).toEqual([{ key: "X-Custom" }, { key: "X-Second" }]);
    const empty = await s.api(`/projects/${project.id}/hooks/${created.id}`, { method: "PUT", json: {} });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: "No parameters provided" });

    const del = await s.api(`/projects/${project.id}/hooks/${created.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    const gone = await s.api(`/projects/${project.id}/hooks/${created.id}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: "404 Hook Not Found" });
  });

  it("validates input as GitLab does", async () => {
    const project = await createProject();
    const post = (json: unknown) => s.api(`/projects/${project.id}/hooks`, { method: "POST", json });
    let res = await post({ push_events: true });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "url is missing" });
    res = await post({ url: "ftp://example.com/x" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: { url: ["is blocked: Only allowed schemes are http, https"] } });
    res = await post({ url: "http://127.0.0.1:9/{missing}" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: { url: ['Invalid URL template. Missing keys: ["missing"]'] } });
    res = await post({ url: "http://127.0.0.1:9/", branch_filter_strategy: "regex", push_events_branch_filter: "(" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: { push_events_branch_filter: ["not valid RE2 syntax: missing ): ("] } });
    res = await post({ url: "http://127.0.0.1:9/", branch_filter_strategy: "regex", push_events_branch_filter: "^(a)\\1" }); // RE2: no backreferences
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: { push_events_branch_filter: ["not valid RE2 syntax: invalid escape sequence: \\1"] } });
    res = await post({ url: "http://127.0.0.1:9/", branch_filter_strategy: "sometimes" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "branch_filter_strategy does not have a valid value" });
    res = await post({ url: "http://127.0.0.1:9/", url_variables: [{ key: "bad key", value: "v" }] });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: { url_variables: ["must be a valid json schema"] } });
    expect(await (await s.api(`/projects/${project.id}/hooks`)).json()).toEqual([]);
  });

  it("needs Maintainer: 403 for a Developer, 404 for outsiders of a private project, 401 anonymously", async () => {
    const project = await createProject();
    const dev = await createUserWithToken(s);
    const outsider = await createUserWithToken(s);
    const add = await s.api(`/projects/${project.id}/members`, { method: "POST", json: { user_id: dev.id, access_level: 30 } });
    expect(add.status).toBe(201);
    const asDev = await s.api(`/projects/${project.id}/hooks`, { token: dev.token });
    expect(asDev.status).toBe(403);
    const asOutsider = await s.api(`/projects/${project.id}/hooks`, { method: "POST", json: { url: "http://127.0.0.1:9/" }, token: outsider.token });
    expect(asOutsider.status).toBe(404);
    expect(await asOutsider.json()).toEqual({ message: "404 Project Not Found" });
    // GitLab's project_hooks API authenticates first.
    const anonymous = await s.api(`/projects/${project.id}/hooks`, { token: null });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "401 Unauthorized" });
  });

  it("works through @gitbeaker/rest ProjectHooks", async () => {
    const project = await createProject();
    const api = s.gitlab();
    const added = await api.ProjectHooks.add(project.id, "http://127.0.0.1:9/gb", { tagPushEvents: true, token: "t" } as never);
    expect(added).toMatchObject({ url: "http://127.0.0.1:9/gb", tag_push_events: true, push_events: true });
    const edited = await api.ProjectHooks.edit(project.id, added.id, "http://127.0.0.1:9/gb2", { pushEvents: false } as never);
    expect(edited).toMatchObject({ url: "http://127.0.0.1:9/gb2", push_events: false });
    expect((await api.ProjectHooks.all(project.id)).map((h) => h.id)).toEqual([added.id]);
    expect((await api.ProjectHooks.show(project.id, added.id)).url).toBe("http://127.0.0.1:9/gb2");
    await api.ProjectHooks.remove(project.id, added.id);
    expect(await api.ProjectHooks.all(project.id)).toEqual([]);
  });
});

describe("push delivery", () => {
  it("delivers push events with GitLab's headers and payload, records them with the token redacted", async () => {
    const r = await receiver();
    const project = await createProject();
    const hook = await createHook(project.id, {
      url: `${r.url}/{seg}/push`,
      token: "very-secret",
      custom_headers: [{ key: "X-Extra", value: "extra-value" }],
      url_variables: [{ key: "seg", value: "hooks" }],
    });
    await commitFile(project.id, "a.txt");
    const got = await waitFor(() => r.requests[0], { message: "push delivery" });
    expect(got.method).toBe("POST");
    expect(got.path).toBe("/hooks/push");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toBe("GitLab/18.5.0");
    expect(got.headers["x-service-event"]).toBe("Push Hook");
    expect(got.headers["x-service-token"]).toBe("very-secret");
    expect(got.headers["x-extra"]).toBe("extra-value");
    expect(got.headers["x-service-webhook-uuid"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers["x-service-event-uuid"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers["x-service-instance"]).toBe(s.url);
    expect(got.json).toMatchObject({
      object_kind: "push",
      event_name: "push",
      ref: "refs/heads/main",
      project_id: project.id,
      user_username: "root",
      total_commits_count: 1,
      project: { id: project.id, path_with_namespace: project.path_with_namespace, web_url: project.web_url, default_branch: "main" },
      repository: { name: expect.any(String) },
    });
    expect(got.json!.commits).toHaveLength(1);
    expect(got.json!.commits![0]).toMatchObject({ message: "add a.txt", added: ["a.txt"], author: { name: expect.any(String) } });
    expect(got.json).not.toHaveProperty("event_id");

    const recorded = await waitFor(async () => (await events(project.id, hook.id))[0]);
    expect(Object.keys(recorded).sort()).toEqual(
      ["execution_duration", "id", "request_data", "request_headers", "response_body", "response_headers", "response_status", "trigger", "url"].sort(),
    );
    expect(recorded).toMatchObject({ trigger: "push_hooks", response_status: "200", response_body: "answered 200", url: `${r.url}/{seg}/push` });
    expect(recorded.request_headers).toEqual({
      "Content-Type": "application/json",
      "User-Agent": "GitLab/18.5.0",
      "Idempotency-Key": got.headers["idempotency-key"],
      "X-Service-Event": "Push Hook",
      "X-Service-Webhook-UUID": got.headers["x-service-webhook-uuid"],
      "X-Service-Instance": s.url,
      "X-Service-Event-UUID": got.headers["x-service-event-uuid"],
      "X-Service-Token": "[REDACTED]",
      "X-Extra": "[REDACTED]",
    });
    expect(recorded.request_data).toEqual(got.json);
    expect(recorded.response_headers).toMatchObject({ "x-receiver": "yes" });
    expect(typeof recorded.execution_duration).toBe("number");
    expect(JSON.stringify(recorded)).not.toMatch(/very-secret|extra-value/);
  });

  it("never shows credentials typed into the URL, but delivers with them (Basic auth)", async () => {
    const r = await receiver();
    const project = await createProject();
    const withCredentials = r.url.replace("://", "://hookuser:PA%40SSWORD@");
    const masked = `${r.url.replace("://", "://*****:*****@")}/in`;
    const hook = await createHook(project.id, { url: `${withCredentials}/in`, push_events: true });
    expect(hook.url).toBe(masked);
    const shown = await s.api(`/projects/${project.id}/hooks/${hook.id}`);
    expect(((await shown.json()) as { url: string }).url).toBe(masked);
    const listed = await s.api(`/projects/${project.id}/hooks`);
    const listedText = await listed.text();
    expect(listedText).toContain(masked);
    expect(listedText).not.toMatch(/hookuser|PA%40SSWORD|PA@SSWORD/);

    // A client that sends back the URL it read keeps the credentials.
    const edited = await s.api(`/projects/${project.id}/hooks/${hook.id}`, { method: "PUT", json: { url: masked, name: "renamed" } });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as { url: string }).url).toBe(masked);

    await commitFile(project.id, "creds.txt");
    const got = await waitFor(() => r.requests[0], { message: "delivery with credentials" });
    expect(got.path).toBe("/in");
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from("hookuser:PA@SSWORD").toString("base64")}`);
    const recorded = await waitFor(async () => (await events(project.id, hook.id))[0]);
    expect(recorded.url).toBe(masked);
    expect(JSON.stringify(recorded)).not.toMatch(/hookuser|PA%40SSWORD|PA@SSWORD/);
  });

  it("delivers tag pushes to tag_push_events hooks only, and honours the branch filter", async () => {
    const tags = await receiver();
    const filtered = await receiver();
    const all = await receiver();
    const project = await createProject();
    await createHook(project.id, { url: tags.url, push_events: false, tag_push_events: true });
    await createHook(project.id, { url: filtered.url, push_events_branch_filter: "release/*" });
    await createHook(project.id, { url: all.url });
    const tag = await s.api(`/projects/${project.id}/repository/tags`, { method: "POST", json: { tag_name: "v1.0", ref: "main" } });
    expect(tag.status).toBe(201);
    const t = await waitFor(() => tags.requests[0], { message: "tag push delivery" });
    expect(t.headers["x-service-event"]).toBe("Tag Push Hook");
    expect(t.json).toMatchObject({ object_kind: "tag_push", ref: "refs/tags/v1.0" });

    await commitFile(project.id, "main.txt");
    await s.api(`/projects/${project.id}/repository/branches`, { method: "POST", json: { branch: "release/1", ref: "main" } });
    await commitFile(project.id, "rel.txt", "release/1");
    // The catch-all hook saw every branch push; by then the filtered one had its turn too.
    await waitFor(() => all.requests.filter((x) => x.json?.object_kind === "push").length >= 3, { message: "pushes to the catch-all hook" });
    await waitFor(() => filtered.requests.length >= 2, { message: "release pushes" });
    expect(filtered.requests.map((x) => x.json!.ref)).toEqual(["refs/heads/release/1", "refs/heads/release/1"]);
    expect(tags.requests).toHaveLength(1);
    expect(all.requests.some((x) => x.json!.object_kind === "tag_push")).toBe(false);
  });

  it("retries 5xx with the same Idempotency-Key; records every attempt; filters records by status", async () => {
    const r = await receiver();
    r.queue.push(500);
    const project = await createProject();
    const hook = await createHook(project.id, { url: r.url });
    await commitFile(project.id, "retry.txt");
    await waitFor(() => r.requests.length >= 2, { message: "a retry" });
    const [first, second] = r.requests;
    expect(second!.headers["idempotency-key"]).toBe(first!.headers["idempotency-key"]);
    expect(second!.headers["x-service-event-uuid"]).toBe(first!.headers["x-service-event-uuid"]);
    expect(second!.body).toBe(first!.body);

    const all = await waitFor(async () => {
      const list = await events(project.id, hook.id);
      return list.length === 2 && list;
    });
    expect(all.map((e) => e.response_status)).toEqual(["200", "500"]); // newest first
    expect((await events(project.id, hook.id, "?status=server_failure")).map((e) => e.response_status)).toEqual(["500"]);
    expect((await events(project.id, hook.id, "?status=successful")).map((e) => e.response_status)).toEqual(["200"]);
    expect((await events(project.id, hook.id, "?status=500")).map((e) => e.id)).toEqual([all[1]!.id]);
    expect(await events(project.id, hook.id, "?status=client_failure")).toEqual([]);
    const paged = await s.api(`/projects/${project.id}/hooks/${hook.id}/events?per_page=1&page=2`);
    expect(paged.headers.get("x-total")).toBe("2");
    expect(paged.headers.get("x-page")).toBe("2");
    expect(((await paged.json()) as { id: number }[]).map((e) => e.id)).toEqual([all[1]!.id]);
    const bad = await s.api(`/projects/${project.id}/hooks/${hook.id}/events?status=teapot`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "status does not have a valid value" });
  });

  it("resends a recorded delivery with its Idempotency-Key, 5 per minute per hook and user", async () => {
    const r = await receiver();
    const project = await createProject();
    const hook = await createHook(project.id, { url: r.url });
    await commitFile(project.id, "resend.txt");
    const [original] = await waitFor(async () => {
      const list = await events(project.id, hook.id);
      return list.length === 1 && list;
    });
    r.queue.push(502);
    const resend = () => s.api(`/projects/${project.id}/hooks/${hook.id}/events/${original!.id}/resend`, { method: "POST" });
    let res = await resend();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ response_status: 502 });
    res = await resend();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ response_status: 200 });
    expect(r.requests).toHaveLength(3);
    expect(new Set(r.requests.map((x) => x.headers["idempotency-key"])).size).toBe(1);
    expect(r.requests[2]!.body).toBe(r.requests[0]!.body);
    expect((await events(project.id, hook.id)).map((e) => e.response_status)).toEqual(["200", "502", "200"]);

    for (let i = 0; i < 3; i++) expect((await resend()).status).toBe(200);
    res = await resend();
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ message: "This endpoint has been requested too many times. Try again later." });
    // Another user has their own allowance.
    const other = await createUserWithToken(s);
    await s.api(`/projects/${project.id}/members`, { method: "POST", json: { user_id: other.id, access_level: 40 } });
    res = await s.api(`/projects/${project.id}/hooks/${hook.id}/events/${original!.id}/resend`, { method: "POST", token: other.token });
    expect(res.status).toBe(200);

    const missing = await s.api(`/projects/${project.id}/hooks/${hook.id}/events/999999/resend`, { method: "POST", token: other.token });
    expect(missing.status).toBe(404);
  });

  it("disables a failing hook temporarily after four failed deliveries; it gets no new events; a successful resend re-enables it", async () => {
    const failing = await receiver(500);
    const healthy = await receiver();
    const project = await createProject();
    const hook = await createHook(project.id, { url: failing.url });
    await createHook(project.id, { url: healthy.url });
    const hookState = async () =>
      (await (await s.api(`/projects/${project.id}/hooks/${hook.id}`)).json()) as { alert_status: string; disabled_until: string | null };
    // Each push is one delivery of 3 attempts (maxAttempts 3): one failure, not three.
    for (let i = 1; i <= 3; i++) {
      await commitFile(project.id, `f${i}.txt`);
      await waitFor(() => failing.requests.length === 3 * i, { message: `delivery ${i} exhausted` });
      await waitFor(() => healthy.requests.length === i, { message: `delivery ${i} at the healthy hook` });
    }
    expect(await hookState()).toMatchObject({ alert_status: "executable", disabled_until: null });
    await commitFile(project.id, "f4.txt"); // the 4th failed delivery disables it
    const disabled = await waitFor(
      async () => {
        const h = await hookState();
        return h.alert_status === "temporarily_disabled" && h;
      },
      { message: "temporarily disabled" },
    );
    expect(Date.parse(disabled.disabled_until!)).toBeGreaterThan(Date.now());
    expect(failing.requests).toHaveLength(12);

    await commitFile(project.id, "f5.txt");
    await waitFor(() => healthy.requests.length === 5, { message: "fifth push at the healthy hook" });
    const list = await events(project.id, hook.id);
    expect(list).toHaveLength(12);
    expect(failing.requests).toHaveLength(12);

    failing.defaultStatus = 200;
    const res = await s.api(`/projects/${project.id}/hooks/${hook.id}/events/${list[0]!.id}/resend`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ response_status: 200 });
    const enabled = (await (await s.api(`/projects/${project.id}/hooks/${hook.id}`)).json()) as Record<string, unknown>;
    expect(enabled).toMatchObject({ alert_status: "executable", disabled_until: null });
  });
});

describe("test endpoint", () => {
  it("sends a sample push built from the latest commits: 201, or 422 when the receiver fails", async () => {
    const r = await receiver();
    const project = await createProject();
    await commitFile(project.id, "t.txt");
    const hook = await createHook(project.id, { url: r.url, push_events: false });
    let res = await s.api(`/projects/${project.id}/hooks/${hook.id}/test/push_events`, { method: "POST" });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: "201 Created" });
    expect(r.requests[0]!.headers["x-service-event"]).toBe("Push Hook");
    expect(r.requests[0]!.json).toMatchObject({ object_kind: "push", ref: "refs/heads/main", project_id: project.id, total_commits_count: 2 });
    expect(r.requests[0]!.json!.commits!.map((c) => c.title)).toEqual(["add t.txt", expect.any(String)]);

    r.queue.push(500);
    res = await s.api(`/projects/${project.id}/hooks/${hook.id}/test/tag_push_events`, { method: "POST" });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message: "answered 500" });

    res = await s.api(`/projects/${project.id}/hooks/${hook.id}/test/nonsense`, { method: "POST" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "trigger does not have a valid value" });

    const empty = await createProject(false);
    const emptyHook = await createHook(empty.id, { url: r.url });
    res = await s.api(`/projects/${empty.id}/hooks/${emptyHook.id}/test/push_events`, { method: "POST" });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message: "Ensure the project has at least one commit." });
  });
});
