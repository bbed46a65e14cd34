// Group webhooks end to end: CRUD (Owner or admin), delivery of pushes in the group's projects and
// its subgroups' projects, events and resend.
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

let s: TestStack;
let r: Receiver;
beforeAll(async () => {
  s = await startTestStack(undefined, { hookSettings: { maxAttempts: 2, retryBaseMs: 20, timeoutMs: 3000, pollIntervalMs: 50 } });
  r = await startReceiver();
});
afterAll(async () => {
  await r?.close();
  await s?.destroy();
});

describe("group hooks", () => {
  it("CRUD with the group-only switches, Owner only", async () => {
    const group = (await (await s.api("/groups", { method: "POST", json: { name: "Hooked", path: "hooked" } })).json()) as { id: number };
    const res = await s.api(`/groups/${group.id}/hooks`, {
      method: "POST",
      json: { url: "http://127.0.0.1:9/g", token: "gt", subgroup_events: true, member_events: true, push_events: false },
    });
    expect(res.status).toBe(201);
    const hook = (await res.json()) as { id: number };
    expect(hook).toMatchObject({
      url: "http://127.0.0.1:9/g",
      group_id: group.id,
      push_events: false,
      subgroup_events: true,
      member_events: true,
      emoji_events: false,
      project_events: false,
      alert_status: "executable",
    });
    expect(hook).not.toHaveProperty("project_id");
    expect(hook).not.toHaveProperty("token");

    expect(await (await s.api(`/groups/${group.id}/hooks/${hook.id}`)).json()).toEqual(hook);
    expect(await (await s.api(`/groups/hooked/hooks`)).json()).toEqual([hook]);
    const put = await s.api(`/groups/${group.id}/hooks/${hook.id}`, { method: "PUT", json: { project_events: true } });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ project_events: true, subgroup_events: true });

    const maintainer = await createUserWithToken(s);
    await s.api(`/groups/${group.id}/members`, { method: "POST", json: { user_id: maintainer.id, access_level: 40 } });
    const denied = await s.api(`/groups/${group.id}/hooks`, { token: maintainer.token });
    expect(denied.status).toBe(403);
    const outsider = await createUserWithToken(s);
    expect((await s.api(`/groups/${group.id}/hooks`, { token: outsider.token })).status).toBe(404);

    // A project's hook id is not reachable through a group, and the other way round.
    const project = (await (await s.api("/projects", { method: "POST", json: { name: "elsewhere" } })).json()) as { id: number };
    expect((await s.api(`/projects/${project.id}/hooks/${hook.id}`)).status).toBe(404);

    expect((await s.api(`/groups/${group.id}/hooks/${hook.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await s.api(`/groups/${group.id}/hooks/${hook.id}`)).status).toBe(404);
  });

  it("delivers pushes of projects in the group and its subgroups; events and resend work on group hooks", async () => {
    const api = s.gitlab();
    const top = await api.Groups.create("Top", "top-hooks");
    const sub = await api.Groups.create("Sub", "sub", { parentId: top.id });
    const project = await api.Projects.create({ name: "deep", namespaceId: sub.id, initializeWithReadme: true } as never);
    const added = await api.GroupHooks.add(top.id, `${r.url}/group`, { tagPushEvents: true } as never);
    expect(added).toMatchObject({ group_id: top.id, push_events: true, tag_push_events: true });
    expect((await api.GroupHooks.all(top.id)).map((h) => h.id)).toEqual([added.id]);

    const res = await s.api(`/projects/${project.id}/repository/files/x.txt`, { method: "POST", json: { branch: "main", content: "x", commit_message: "x" } });
    expect(res.status).toBe(201);
    const got = await waitFor(() => r.requests.find((q) => q.path === "/group"), { message: "group hook delivery" });
    expect(got.headers["x-service-event"]).toBe("Push Hook");
    expect(got.json).toMatchObject({ object_kind: "push", project_id: project.id, project: { path_with_namespace: "top-hooks/sub/deep" } });

    const list = await waitFor(async () => {
      const l = (await (await s.api(`/groups/${top.id}/hooks/${added.id}/events?status=successful`)).json()) as { id: number; trigger: string }[];
      return l.length === 1 && l;
    });
    expect(list[0]!.trigger).toBe("push_hooks");
    const resend = await s.api(`/groups/${top.id}/hooks/${added.id}/events/${list[0]!.id}/resend`, { method: "POST" });
    expect(resend.status).toBe(200);
    expect(await resend.json()).toEqual({ response_status: 200 });
    expect(r.requests.filter((q) => q.path === "/group")).toHaveLength(2);

    const test = await s.api(`/groups/${top.id}/hooks/${added.id}/test/push_events`, { method: "POST" });
    expect(test.status).toBe(201);

    await api.GroupHooks.remove(top.id, added.id);
    expect(await api.GroupHooks.all(top.id)).toEqual([]);
  });

  it("project_events and subgroup_events: projects created or deleted and subgroups created anywhere below the group", async () => {
    const api = s.gitlab();
    const top = await api.Groups.create("Org", "org-hooks");
    const hook = (await (
      await s.api(`/groups/${top.id}/hooks`, {
        method: "POST",
        json: { url: `${r.url}/org`, push_events: false, project_events: true, subgroup_events: true },
      })
    ).json()) as { id: number };
    const seen = () => r.requests.filter((q) => q.path === "/org");

    const team = await api.Groups.create("Team", "team", { parentId: top.id });
    const sub = await waitFor(() => seen().find((q) => q.json!.event_name === "subgroup_create"), { message: "subgroup_create" });
    expect(sub.headers["x-service-event"]).toBe("Subgroup Hook");
    expect(sub.json).toEqual({
      created_at: expect.any(String),
      updated_at: expect.any(String),
      event_name: "subgroup_create",
      name: "Team",
      path: "team",
      full_path: "org-hooks/team",
      group_id: team.id,
      parent_group_id: top.id,
      parent_name: "Org",
      parent_path: "org-hooks",
      parent_full_path: "org-hooks",
    });

    const project = await api.Projects.create({ name: "svc", namespaceId: team.id } as never);
    const created = await waitFor(() => seen().find((q) => q.json!.event_name === "project_create"), { message: "project_create" });
    expect(created.headers["x-service-event"]).toBe("Project Hook");
    expect(created.json).toMatchObject({
      event_name: "project_create",
      project_id: project.id,
      path_with_namespace: "org-hooks/team/svc",
      project_visibility: "private",
    });
    expect(created.json).not.toHaveProperty("event_id");

    await api.Projects.remove(project.id);
    const destroyed = await waitFor(() => seen().find((q) => q.json!.event_name === "project_destroy"), { message: "project_destroy" });
    expect(destroyed.json).toMatchObject({ project_id: project.id, path_with_namespace: "org-hooks/team/svc" });

    // A personal project concerns no group: by the time a later group project arrives, it has not.
    await api.Projects.create({ name: "mine" } as never);
    const later = await api.Projects.create({ name: "later", namespaceId: top.id } as never);
    await waitFor(() => seen().find((q) => q.json!.project_id === later.id), { message: "later project_create" });
    expect(
      seen()
        .filter((q) => q.json!.event_name === "project_create")
        .map((q) => q.json!.name),
    ).toEqual(["svc", "later"]);

    const triggers = await waitFor(async () => {
      const list = (await (await s.api(`/groups/${top.id}/hooks/${hook.id}/events`)).json()) as { trigger: string }[];
      return list.length === 4 && list;
    });
    expect(triggers.map((e) => e.trigger).sort()).toEqual(["project_hooks", "project_hooks", "project_hooks", "subgroup_hooks"]);
  });
});
