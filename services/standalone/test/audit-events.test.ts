// Audit events end to end: actions through the API (group, project and member changes, users)
// are recorded by activity-service from the domain events and read back through GitLab's three
// audit event APIs with document 3's access rules, filters, the 30-day window, keyset and offset
// pages; also through @gitbeaker/rest's AuditEvents. Webhook payloads never carry the actor block.
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

let s: TestStack;
let r: Receiver;
const get = (path: string, token?: string | null) => s.api(path, { token });
/** A write from a given client address (the gateway trusts X-Forwarded-For from loopback). */
const send = (method: string, path: string, json: unknown, token?: string, ip = "203.0.113.77") =>
  s.api(path, { method, json, token, headers: { "X-Forwarded-For": ip } });

interface AuditEventJson {
  id: number;
  author_id: number;
  entity_id: number;
  entity_type: string;
  event_name: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

let root: { id: number; name: string; email: string };
let owner: Awaited<ReturnType<typeof createUserWithToken>>;
let maintainer: Awaited<ReturnType<typeof createUserWithToken>>;
let developer: Awaited<ReturnType<typeof createUserWithToken>>;
let reporter: Awaited<ReturnType<typeof createUserWithToken>>;
let outsider: Awaited<ReturnType<typeof createUserWithToken>>;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };

async function events(path: string, token?: string): Promise<AuditEventJson[]> {
  return jsonBody(await get(path, token), 200);
}

/** Waits until the list at `path` has an event matching `pred`. */
function eventually(path: string, pred: (e: AuditEventJson) => boolean, message: string) {
  return waitFor(async () => (await events(path)).find(pred), { message });
}

beforeAll(async () => {
  s = await startTestStack(undefined, { hookSettings: { maxAttempts: 2, retryBaseMs: 20, timeoutMs: 3000, pollIntervalMs: 50 } });
  r = await startReceiver();
  root = await jsonBody(await get("/user"), 200);
  [owner, maintainer, developer, reporter, outsider] = [
    await createUserWithToken(s),
    await createUserWithToken(s),
    await createUserWithToken(s),
    await createUserWithToken(s),
    await createUserWithToken(s),
  ];
  group = await jsonBody(await send("POST", "/groups", { name: "Audited", path: "audited", visibility: "private" }, owner.token), 201);
  // A group hook with member events: its payloads must not carry the actor block.
  expect((await send("POST", `/groups/${group.id}/hooks`, { url: `${r.url}/members`, member_events: true, push_events: false }, owner.token)).status).toBe(201);
  for (const [u, level] of [
    [maintainer, 40],
    [developer, 30],
    [reporter, 20],
  ] as const) {
    expect((await send("POST", `/groups/${group.id}/members`, { user_id: u.id, access_level: level }, owner.token)).status).toBe(201);
  }
  project = await jsonBody(await send("POST", "/projects", { name: "Site", path: "site", namespace_id: group.id }, owner.token), 201);
}, 120_000);
afterAll(async () => {
  await r?.close();
  await s?.destroy();
});

describe("recording", () => {
  it("records a group's creation with GitLab's fields, the author and the client's address", async () => {
    const created = await eventually(`/groups/${group.id}/audit_events`, (e) => e.event_name === "group_created", "group_created");
    expect(created).toEqual({
      id: expect.any(Number),
      author_id: owner.id,
      entity_id: group.id,
      entity_type: "Group",
      event_name: "group_created",
      details: {
        add: "group",
        author_name: `User ${owner.username.slice(4)}`,
        author_email: `${owner.username}@example.com`,
        author_class: "User",
        target_id: group.id,
        target_type: "Group",
        target_details: "audited",
        ip_address: "203.0.113.77",
        entity_path: "audited",
      },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it("records member additions, changes and removals of groups and projects", async () => {
    const added = await eventually(
      `/groups/${group.id}/audit_events`,
      (e) => e.event_name === "member_created" && e.details.target_id === developer.id,
      "member_created",
    );
    expect(added.details).toMatchObject({
      add: "user_access",
      as: "Developer",
      target_type: "User",
      target_details: developer.username,
      entity_path: "audited",
    });

    expect((await send("PUT", `/groups/${group.id}/members/${reporter.id}`, { access_level: 30 }, owner.token)).status).toBe(200);
    const changed = await eventually(`/groups/${group.id}/audit_events`, (e) => e.event_name === "member_updated", "member_updated");
    expect(changed.details).toMatchObject({ change: "access_level", from: "Reporter", to: "Developer", target_id: reporter.id });
    expect((await send("PUT", `/groups/${group.id}/members/${reporter.id}`, { access_level: 20 }, owner.token)).status).toBe(200);

    // Project memberships: no webhook in GitLab, but audit events.
    expect((await send("POST", `/projects/${project.id}/members`, { user_id: outsider.id, access_level: 10 }, maintainer.token)).status).toBe(201);
    expect((await send("DELETE", `/projects/${project.id}/members/${outsider.id}`, undefined, maintainer.token)).status).toBe(204);
    const removed = await eventually(`/projects/${project.id}/audit_events`, (e) => e.event_name === "member_destroyed", "member_destroyed");
    expect(removed).toMatchObject({ author_id: maintainer.id, entity_type: "Project", entity_id: project.id });
    expect(removed.details).toMatchObject({
      remove: "user_access",
      target_details: outsider.username,
      entity_path: "audited/site",
      ip_address: "203.0.113.77",
    });
  });

  it("records project creation, rename and deletion, and users' creation by administrators", async () => {
    const p = await jsonBody(await send("POST", "/projects", { name: "Tmp", path: "tmp", namespace_id: group.id }, owner.token), 201);
    expect((await send("PUT", `/projects/${p.id}`, { path: "tmp2" }, owner.token)).status).toBe(200);
    expect((await send("DELETE", `/projects/${p.id}`, undefined, owner.token)).status).toBe(202);
    const path = `/audit_events?entity_type=Project&entity_id=${p.id}`;
    await waitFor(async () => (await events(path)).length === 3, { message: "three project events" });
    const list = await events(path);
    expect(list.map((e) => e.event_name)).toEqual(["project_destroyed", "project_path_updated", "project_created"]);
    expect(list[1]!.details).toMatchObject({ change: "path", from: "audited/tmp", to: "audited/tmp2" });
    expect(list[0]!.details).toMatchObject({ remove: "project", entity_path: "audited/tmp2", author_name: `User ${owner.username.slice(4)}` });

    const created = await eventually(`/audit_events?entity_type=User&entity_id=${outsider.id}`, (e) => e.event_name === "user_created", "user_created");
    expect(created).toMatchObject({ author_id: root.id, entity_type: "User", entity_id: outsider.id });
    expect(created.details).toMatchObject({ add: "user", author_name: root.name, target_details: outsider.username, entity_path: outsider.username });
  });

  it("keeps the actor block out of webhook payloads", async () => {
    const delivered = await waitFor(() => r.requests.find((q) => q.json?.event_name === "user_add_to_group" && q.json?.user_id === developer.id), {
      message: "member hook",
    });
    expect(delivered.json).not.toHaveProperty("actor");
    expect(delivered.body).not.toContain("203.0.113.77");
  });
});

describe("recording of tokens, protected branches, webhooks and push mirrors", () => {
  it("records them on the user or the project with the project's path", async () => {
    const tok = await jsonBody(await send("POST", `/users/${outsider.id}/personal_access_tokens`, { name: "audited", scopes: ["api"] }), 201);
    // The first use of a token writes its last_used_at: "authenticated with token".
    expect((await s.api("/user", { token: tok.token, headers: { "X-Forwarded-For": "198.51.100.3" } })).status).toBe(200);
    expect((await send("DELETE", `/personal_access_tokens/${tok.id}`, undefined, outsider.token)).status).toBe(204);
    const userPath = `/audit_events?entity_type=User&entity_id=${outsider.id}&per_page=100`;
    await waitFor(async () => (await events(userPath)).some((e) => e.event_name === "personal_access_token_revoked"), { message: "token revoked" });
    const ofToken = (await events(userPath)).filter((e) => e.details.target_id === tok.id);
    expect(ofToken.map((e) => [e.event_name, e.author_id, e.details.ip_address])).toEqual([
      ["personal_access_token_revoked", outsider.id, "203.0.113.77"],
      ["authenticated_with_token", outsider.id, "198.51.100.3"],
      ["personal_access_token_created", root.id, "203.0.113.77"],
    ]);
    expect(ofToken[2]!.details).toMatchObject({
      custom_message: `Created personal access token with id ${tok.id}`,
      target_type: "PersonalAccessToken",
      target_details: "audited",
    });

    const pp = await jsonBody(
      await send("POST", "/projects", { name: "Guarded", path: "guarded", namespace_id: group.id, initialize_with_readme: true }, owner.token),
      201,
    );
    expect((await send("POST", `/projects/${pp.id}/protected_branches`, { name: "release/*" }, owner.token)).status).toBe(201);
    expect(
      (await send("PATCH", `/projects/${pp.id}/protected_branches/${encodeURIComponent("release/*")}`, { allow_force_push: true }, owner.token)).status,
    ).toBe(200);
    expect((await send("DELETE", `/projects/${pp.id}/protected_branches/${encodeURIComponent("release/*")}`, undefined, owner.token)).status).toBe(204);
    const hook = await jsonBody(await send("POST", `/projects/${pp.id}/hooks`, { url: "http://user:pw@127.0.0.1:9/h" }, owner.token), 201);
    expect((await send("PUT", `/projects/${pp.id}/hooks/${hook.id}`, { url: "http://127.0.0.1:9/h2" }, owner.token)).status).toBe(200);
    expect((await send("DELETE", `/projects/${pp.id}/hooks/${hook.id}`, undefined, owner.token)).status).toBe(204);
    const mirror = await jsonBody(await send("POST", `/projects/${pp.id}/remote_mirrors`, { url: "https://bob:pw@example.com/x.git" }, owner.token), 201);
    expect((await send("PUT", `/projects/${pp.id}/remote_mirrors/${mirror.id}`, { enabled: true }, owner.token)).status).toBe(200);
    expect((await send("DELETE", `/projects/${pp.id}/remote_mirrors/${mirror.id}`, undefined, owner.token)).status).toBe(204);
    const path = `/projects/${pp.id}/audit_events?per_page=100`;
    const names = [
      "remote_mirror_destroyed",
      "remote_mirror_updated",
      "remote_mirror_created",
      "webhook_destroyed",
      "webhook_updated",
      "webhook_created",
      "protected_branch_removed",
      "protected_branch_updated",
      "protected_branch_created",
    ];
    await waitFor(
      async () => {
        const got = (await events(path)).map((e) => e.event_name);
        return names.every((n) => got.includes(n));
      },
      { message: "project events" },
    );
    const list = await events(path);
    expect(list.map((e) => e.event_name).filter((n) => names.includes(n!))).toEqual(names);
    for (const e of list) expect(e).toMatchObject({ entity_type: "Project", entity_id: pp.id, details: { entity_path: "audited/guarded" } });
    expect(list.find((e) => e.event_name === "protected_branch_created")!.details).toMatchObject({ add: "protected_branch", target_details: "release/*" });
    expect(JSON.stringify(list)).not.toContain("pw@");
  });
});

describe("GET /audit_events (administrators)", () => {
  it("lists, filters by entity, and refuses everyone else", async () => {
    const all = await events("/audit_events?per_page=100");
    expect(all.length).toBeGreaterThan(5);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    const groups = await events("/audit_events?entity_type=Group&per_page=100");
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.every((e) => e.entity_type === "Group")).toBe(true);
    const mine = await events(`/audit_events?entity_type=Group&entity_id=${group.id}&per_page=100`);
    expect(mine.every((e) => e.entity_id === group.id)).toBe(true);

    expect(await jsonBody(await get(`/audit_events?entity_id=${group.id}`), 400)).toEqual({ error: "entity_type is missing" });
    expect(await jsonBody(await get("/audit_events?entity_type=Issue"), 400)).toEqual({ error: "entity_type does not have a valid value" });
    expect(await jsonBody(await get("/audit_events?created_after=soon"), 400)).toEqual({ error: "created_after does not have a valid value" });
    expect(await jsonBody(await get("/audit_events", owner.token), 403)).toEqual({ message: "403 Forbidden" });
    expect((await get("/audit_events", null)).status).toBe(401);
  });

  it("answers one event, 404 Not found for others", async () => {
    const [first] = await events("/audit_events?per_page=1");
    expect(await jsonBody(await get(`/audit_events/${first!.id}`), 200)).toEqual(first);
    expect(await jsonBody(await get("/audit_events/999999"), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await get(`/audit_events/${first!.id}`, owner.token), 403)).toEqual({ message: "403 Forbidden" });
  });

  it("covers at most 30 days a query", async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
    expect(await jsonBody(await get(`/audit_events?created_after=${iso(now - 40 * 86_400_000)}`), 400)).toEqual({
      message: "400 Bad request - Date range limited to 30 days",
    });
    expect(await jsonBody(await get(`/audit_events?created_after=${iso(now - 60 * 86_400_000)}&created_before=${iso(now - 20 * 86_400_000)}`), 400)).toEqual({
      message: "400 Bad request - Date range limited to 30 days",
    });
    // Without created_after: the 30 days before created_before.
    expect(await events(`/audit_events?created_before=${iso(now - 86_400_000)}`)).toEqual([]);
    // A window in the future holds nothing; one around now holds everything.
    expect(await events(`/audit_events?created_after=${iso(now + 3_600_000)}`)).toEqual([]);
    expect((await events(`/audit_events?created_after=${iso(now - 86_400_000)}&created_before=${iso(now + 60_000)}&per_page=100`)).length).toBe(
      (await events("/audit_events?per_page=100")).length,
    );
  });

  it("pages by keyset (cursor Link) and by offset (X-* headers)", async () => {
    const all = await events("/audit_events?per_page=100");
    const seen: number[] = [];
    let next: string | null = `${s.url}/api/v4/audit_events?pagination=keyset&per_page=2`;
    while (next) {
      const res = await fetch(next, { headers: { "PRIVATE-TOKEN": s.rootToken } });
      expect(res.status).toBe(200);
      seen.push(...((await res.json()) as AuditEventJson[]).map((e) => e.id));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1] ?? null;
      if (next) expect(new URL(next).searchParams.get("cursor")).toBeTruthy();
    }
    expect(seen).toEqual(all.map((e) => e.id));
    expect((await get("/audit_events?pagination=keyset&order_by=created_at")).status).toBe(405);

    const page2 = await get("/audit_events?page=2&per_page=2");
    expect(page2.headers.get("x-page")).toBe("2");
    expect(page2.headers.get("x-per-page")).toBe("2");
    expect(page2.headers.get("x-total")).toBe(String(all.length));
    expect(((await page2.json()) as AuditEventJson[]).map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));
  });
});

describe("GET /groups/:id/audit_events", () => {
  it("shows Owners and administrators every event, Developers and Maintainers only their own", async () => {
    const byOwner = await events(`/groups/${group.id}/audit_events?per_page=100`, owner.token);
    expect(byOwner.length).toBeGreaterThanOrEqual(5);
    expect(await events(`/groups/${group.id}/audit_events?per_page=100`)).toEqual(byOwner);
    expect(byOwner.every((e) => e.entity_type === "Group" && e.entity_id === group.id)).toBe(true);
    expect(await events(`/groups/${group.id}/audit_events`, developer.token)).toEqual([]);
    expect(await events(`/groups/${group.id}/audit_events`, maintainer.token)).toEqual([]);
    expect(await jsonBody(await get(`/groups/${group.id}/audit_events`, reporter.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await get(`/groups/${group.id}/audit_events`, outsider.token), 404)).toEqual({ message: "404 Group Not Found" });
  });

  it("answers one event to Owners and administrators only", async () => {
    const [e] = await events(`/groups/${group.id}/audit_events?per_page=1`, owner.token);
    expect(await jsonBody(await get(`/groups/${group.id}/audit_events/${e!.id}`, owner.token), 200)).toEqual(e);
    expect(await jsonBody(await get(`/groups/${group.id}/audit_events/${e!.id}`), 200)).toEqual(e);
    expect(await jsonBody(await get(`/groups/${group.id}/audit_events/${e!.id}`, maintainer.token), 403)).toEqual({ message: "403 Forbidden" });
    const [other] = await events("/audit_events?entity_type=User&per_page=1");
    expect(await jsonBody(await get(`/groups/${group.id}/audit_events/${other!.id}`, owner.token), 404)).toEqual({ message: "404 Not found" });
  });
});

describe("GET /projects/:id/audit_events", () => {
  it("shows Maintainers every event, Developers only their own; one event needs Maintainer", async () => {
    const all = await events(`/projects/${project.id}/audit_events?per_page=100`, maintainer.token);
    expect(all.map((e) => e.event_name)).toEqual(["member_destroyed", "member_created", "project_created"]);
    expect(all[2]!.author_id).toBe(owner.id);
    expect(await events(`/projects/${project.id}/audit_events`, developer.token)).toEqual([]);
    expect(await jsonBody(await get(`/projects/${project.id}/audit_events`, reporter.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await get(`/projects/${project.id}/audit_events`, outsider.token), 404)).toEqual({ message: "404 Project Not Found" });

    expect(await jsonBody(await get(`/projects/${project.id}/audit_events/${all[0]!.id}`, maintainer.token), 200)).toEqual(all[0]);
    expect(await jsonBody(await get(`/projects/${project.id}/audit_events/${all[0]!.id}`, developer.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await get(`/projects/${project.id}/audit_events/999999`, maintainer.token), 404)).toEqual({ message: "404 Not found" });
  });

  it("shows a Developer the events of their own actions", async () => {
    // The developer becomes a Maintainer of the project, adds someone, and is a Developer again.
    expect((await send("POST", `/projects/${project.id}/members`, { user_id: developer.id, access_level: 40 }, owner.token)).status).toBe(201);
    expect((await send("POST", `/projects/${project.id}/members`, { user_id: outsider.id, access_level: 10 }, developer.token)).status).toBe(201);
    expect((await send("PUT", `/projects/${project.id}/members/${developer.id}`, { access_level: 30 }, owner.token)).status).toBe(200);
    const own = await waitFor(
      async () => {
        const list = await events(`/projects/${project.id}/audit_events`, developer.token);
        return list.length ? list : undefined;
      },
      { message: "developer's own event" },
    );
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ author_id: developer.id, event_name: "member_created", details: { target_id: outsider.id } });
  });
});

describe("@gitbeaker/rest AuditEvents", () => {
  it("lists and shows instance, group and project audit events", async () => {
    const api = s.gitlab();
    const instance = await api.AuditEvents.all({ entityType: "Group", entityId: group.id });
    expect(instance.length).toBeGreaterThan(0);
    expect(instance.every((e) => e.entity_id === group.id)).toBe(true);
    const one = await api.AuditEvents.show(instance[0]!.id as number);
    expect(one).toEqual(instance[0]);
    const ofGroup = await s.gitlab(owner.token).AuditEvents.all({ groupId: group.id });
    expect(ofGroup.map((e) => e.id)).toEqual(instance.map((e) => e.id).slice(0, ofGroup.length));
    expect(await s.gitlab(owner.token).AuditEvents.show(ofGroup[0]!.id as number, { groupId: group.id })).toEqual(ofGroup[0]);
    const ofProject = await s.gitlab(maintainer.token).AuditEvents.all({ projectId: project.id, pagination: "keyset", perPage: 1 } as never);
    expect(ofProject.length).toBeGreaterThan(1);
    expect(await s.gitlab(maintainer.token).AuditEvents.show(ofProject[0]!.id as number, { projectId: project.id })).toEqual(ofProject[0]);
    await expect(s.gitlab(owner.token).AuditEvents.all()).rejects.toMatchObject({ cause: { response: { status: 403 } } });
  });
});
