// Notification settings end to end: plain fetch for GitLab's exact bodies and errors, and
// @gitbeaker/rest (python-gitlab: python-stars-notifications.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let priv: { id: number };
let user: { id: number; username: string; token: string };

const { post, put } = jsonRequests(() => s);

const EVENTS = [
  "new_release",
  "new_note",
  "new_issue",
  "reopen_issue",
  "close_issue",
  "reassign_issue",
  "issue_due",
  "new_merge_request",
  "push_to_merge_request",
  "reopen_merge_request",
  "close_merge_request",
  "reassign_merge_request",
  "change_reviewer_merge_request",
  "merge_merge_request",
  "failed_pipeline",
  "fixed_pipeline",
  "success_pipeline",
  "moved_project",
  "merge_when_pipeline_succeeds",
  "approver",
  "new_epic",
];

beforeAll(async () => {
  s = await startTestStack();
  group = await jsonBody(await post("/groups", { name: "Notify", path: "notify-top", visibility: "public" }), 201);
  project = await jsonBody(await post("/projects", { name: "bell", namespace_id: group.id, visibility: "public" }), 201);
  priv = await jsonBody(await post("/projects", { name: "quiet", visibility: "private" }), 201);
  user = await createUserWithToken(s);
}, 60_000);
afterAll(() => s?.destroy());

describe("/notification_settings (global)", () => {
  it("defaults to participating with the primary e-mail, and stores level and e-mail", async () => {
    const email = `${user.username}@example.com`;
    expect(await jsonBody(await s.api("/notification_settings", { token: user.token }), 200)).toEqual({ level: "participating", notification_email: email });
    expect(await jsonBody(await put("/notification_settings", { level: "watch", notification_email: email }, user.token), 200)).toEqual({
      level: "watch",
      notification_email: email,
    });
    expect(await jsonBody(await s.api("/notification_settings", { token: user.token }), 200)).toEqual({ level: "watch", notification_email: email });
  });

  it("shows all 21 events, true/false/null, at the custom level", async () => {
    const body = await jsonBody(await put("/notification_settings", { level: "custom", new_note: true, failed_pipeline: "false" }, user.token), 200);
    expect(body.level).toBe("custom");
    expect(Object.keys(body.events).sort()).toEqual([...EVENTS].sort());
    expect(body.events).toMatchObject({ new_note: true, failed_pipeline: false, new_issue: null });
    expect(body.notification_email).toBe(`${user.username}@example.com`);
  });

  it("refuses unknown levels and unverified e-mails with GitLab's bodies, changing nothing", async () => {
    const before = await jsonBody(await s.api("/notification_settings", { token: user.token }), 200);
    expect(await jsonBody(await put("/notification_settings", { level: "loud" }, user.token), 400)).toEqual({ error: "level does not have a valid value" });
    expect(await jsonBody(await put("/notification_settings", { level: "disabled", notification_email: "nobody@example.com" }, user.token), 400)).toEqual({
      message: { notification_email: ["must be an email you have verified"] },
    });
    expect(await jsonBody(await s.api("/notification_settings", { token: user.token }), 200)).toEqual(before);
    expect(await jsonBody(await s.api("/notification_settings", { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
  });
});

describe("/groups/:id and /projects/:id notification_settings", () => {
  it("default to global, store levels and events per source, by id or path", async () => {
    expect(await jsonBody(await s.api(`/groups/${group.id}/notification_settings`, { token: user.token }), 200)).toEqual({ level: "global" });
    expect(await jsonBody(await put(`/groups/${group.full_path}/notification_settings`, { level: "mention" }, user.token), 200)).toEqual({ level: "mention" });
    expect(await jsonBody(await s.api(`/groups/${group.id}/notification_settings`, { token: user.token }), 200)).toEqual({ level: "mention" });

    const path = `/projects/${encodeURIComponent(project.path_with_namespace)}/notification_settings`;
    const custom = await jsonBody(await put(path, { level: "custom", new_merge_request: true }, user.token), 200);
    expect(custom).toEqual({ level: "custom", events: expect.objectContaining({ new_merge_request: true, new_note: null }) });
    expect(Object.keys(custom.events)).toHaveLength(21);
    expect(await jsonBody(await s.api(`/projects/${project.id}/notification_settings`, { token: user.token }), 200)).toEqual(custom);
    // Back to a plain level: events are kept but not shown.
    expect(await jsonBody(await put(path, { level: "disabled" }, user.token), 200)).toEqual({ level: "disabled" });
  });

  it("answer 404 for what the caller cannot read, 400 for an unknown level", async () => {
    expect(await jsonBody(await s.api(`/projects/${priv.id}/notification_settings`, { token: user.token }), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await put("/groups/999999/notification_settings", { level: "watch" }, user.token), 404)).toEqual({ message: "404 Group Not Found" });
    expect(await jsonBody(await put(`/projects/${project.id}/notification_settings`, { level: "sometimes" }, user.token), 400)).toEqual({
      error: "level does not have a valid value",
    });
    expect((await s.api(`/projects/${project.id}/notification_settings`, { token: null })).status).toBe(401);
  });

  it("work through gitbeaker", async () => {
    const api = s.gitlab(user.token);
    expect((await api.NotificationSettings.edit({ groupId: group.id, level: "watch" })).level).toBe("watch");
    expect((await api.NotificationSettings.show({ groupId: group.id })).level).toBe("watch");
    const edited = await api.NotificationSettings.edit({ projectId: project.id, level: "custom", newNote: true });
    expect(edited.level).toBe("custom");
    expect((await api.NotificationSettings.show()).level).toBe("custom");
  });
});
