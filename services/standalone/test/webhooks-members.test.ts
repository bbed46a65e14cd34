// Group member events end to end: members added, changed and removed through the API (fetch and
// @gitbeaker/rest) reach the group's hooks and its ancestors' hooks with member_events on, with
// GitLab's payloads (Gitlab::HookData::GroupMemberBuilder) and the Member Hook header.
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

const XMLSCHEMA = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe("group member events", () => {
  it("add, update and remove of group members reach the hooks of the group and its ancestors with member_events on", async () => {
    const api = s.gitlab();
    const top = await api.Groups.create("Crew", "crew-members");
    const hook = await api.GroupHooks.add(top.id, `${r.url}/crew`, { memberEvents: true, pushEvents: false } as never);
    expect(hook).toMatchObject({ member_events: true, push_events: false });
    const off = await s.api(`/groups/${top.id}/hooks`, { method: "POST", json: { url: `${r.url}/crew-off`, subgroup_events: true } });
    expect(off.status).toBe(201);
    const at = (path: string) => r.requests.filter((q) => q.path === path);
    const events = (name: string) => at("/crew").filter((q) => q.json?.event_name === name);

    // The creator's Owner membership of a new subgroup is a member event for the parent's hooks.
    const squad = await api.Groups.create("Squad", "squad", { parentId: top.id });
    const ownerAdded = await waitFor(() => events("user_add_to_group").find((q) => q.json?.group_id === squad.id), { message: "owner of squad" });
    expect(ownerAdded.json).toMatchObject({ group_path: "squad", user_username: "root", group_access: "Owner", expires_at: null });

    const robert = await createUserWithToken(s);
    const pub = await s.api(`/users/${robert.id}`, { method: "PUT", json: { public_email: `${robert.username}@example.com` } });
    expect(pub.status).toBe(200);
    const added = await s.api(`/groups/${squad.id}/members`, { method: "POST", json: { user_id: robert.id, access_level: 10, expires_at: "2099-12-04" } });
    expect(added.status).toBe(201);
    const add = await waitFor(() => events("user_add_to_group").find((q) => q.json?.user_id === robert.id), { message: "user_add_to_group" });
    expect(add.method).toBe("POST");
    expect(add.headers["x-service-event"]).toBe("Member Hook");
    expect(add.headers["content-type"]).toBe("application/json");
    expect(add.json).toEqual({
      created_at: expect.stringMatching(XMLSCHEMA),
      updated_at: expect.stringMatching(XMLSCHEMA),
      group_name: "Squad",
      group_path: "squad",
      group_id: squad.id,
      user_username: robert.username,
      user_name: `User ${robert.username.slice(4)}`,
      user_email: `${robert.username}@example.com`,
      user_id: robert.id,
      group_access: "Guest",
      expires_at: "2099-12-04T00:00:00Z",
      group_plan: null,
      event_name: "user_add_to_group",
    });

    await api.GroupMembers.edit(squad.id, robert.id, 30, { expiresAt: "2099-12-31" });
    const update = await waitFor(() => events("user_update_for_group")[0], { message: "user_update_for_group" });
    expect(update.headers["x-service-event"]).toBe("Member Hook");
    expect(update.json).toMatchObject({
      event_name: "user_update_for_group",
      user_id: robert.id,
      group_id: squad.id,
      group_access: "Developer",
      expires_at: "2099-12-31T00:00:00Z",
    });

    await api.GroupMembers.remove(squad.id, robert.id);
    const removed = await waitFor(() => events("user_remove_from_group")[0], { message: "user_remove_from_group" });
    expect(removed.json).toMatchObject({ event_name: "user_remove_from_group", user_id: robert.id, group_access: "Developer", group_path: "squad" });

    // A member of the hook's own group; a user without a public email is "[REDACTED]" (GitLab's webhook_email).
    const dana = await createUserWithToken(s);
    await api.GroupMembers.add(top.id, 40, { userId: dana.id });
    const direct = await waitFor(() => events("user_add_to_group").find((q) => q.json?.user_id === dana.id), { message: "dana added to crew" });
    expect(direct.json).toMatchObject({ group_id: top.id, group_name: "Crew", group_access: "Maintainer", user_email: "[REDACTED]", expires_at: null });

    // Project memberships are no member events (GitLab's member hooks are group memberships').
    const project = await api.Projects.create({ name: "tool", namespaceId: squad.id } as never);
    await api.ProjectMembers.add(project.id, 30, { userId: robert.id });
    await api.ProjectMembers.edit(project.id, robert.id, 40);
    await api.ProjectMembers.remove(project.id, robert.id);
    // Events go out in order: once this one has arrived, none came of the project's memberships.
    await api.GroupMembers.remove(top.id, dana.id);
    await waitFor(() => events("user_remove_from_group").find((q) => q.json?.user_id === dana.id), { message: "dana removed from crew" });
    // Deliveries of one worker batch may arrive in any order: compare what arrived, not its order.
    const crew = await waitFor(() => at("/crew").length >= 6 && at("/crew"), { message: "six member deliveries to /crew" });
    const seen = (list: string[][]) => list.map((e) => e.join(" ")).sort();
    expect(seen(crew.map((q) => [String(q.json?.event_name), String(q.json?.group_path), String(q.json?.user_username)]))).toEqual(
      seen([
        ["user_add_to_group", "squad", "root"],
        ["user_add_to_group", "squad", robert.username],
        ["user_update_for_group", "squad", robert.username],
        ["user_remove_from_group", "squad", robert.username],
        ["user_add_to_group", "crew-members", dana.username],
        ["user_remove_from_group", "crew-members", dana.username],
      ]),
    );

    const list = await waitFor(
      async () => {
        const l = (await (await s.api(`/groups/${top.id}/hooks/${hook.id}/events`)).json()) as { trigger: string }[];
        return l.length === 6 && l;
      },
      { message: "6 recorded deliveries" },
    );
    expect(new Set(list.map((e) => e.trigger))).toEqual(new Set(["member_hooks"]));
    expect(at("/crew-off").every((q) => q.json?.event_name === "subgroup_create")).toBe(true);

    // GitLab's test endpoint takes ProjectHook triggers only: member_events cannot be tested.
    const test = await s.api(`/groups/${top.id}/hooks/${hook.id}/test/member_events`, { method: "POST" });
    expect(test.status).toBe(400);
    expect(await test.json()).toEqual({ error: "trigger does not have a valid value" });
  });
});
