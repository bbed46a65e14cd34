// Issue events end to end: creating, editing, closing and reopening issues through the API reaches
// project hooks and the project's groups' hooks with issues_events on, with GitLab's payload
// (Gitlab::HookData::IssueBuilder: object_attributes with action, labels, assignees, changes) and
// the Issue Hook header; confidential issues reach only hooks with confidential_issues_events.
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { startReceiver, type ReceivedRequest, type Receiver } from "./webhook-receiver.ts";

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

const { post, put } = jsonRequests(() => s);
const attrs = (q: ReceivedRequest) => (q.json?.object_attributes ?? {}) as { iid?: number; action?: string };

describe("issue events", () => {
  it("open, update, close and reopen reach project and group hooks with GitLab's payload; confidential issues only the confidential switch", async () => {
    const group = await jsonBody(await post("/groups", { name: "Trackers", path: "trackers", visibility: "public" }), 201);
    const project = await jsonBody(await post("/projects", { name: "Board", namespace_id: group.id, visibility: "public" }), 201);
    await jsonBody(await post(`/projects/${project.id}/hooks`, { url: `${r.url}/project`, issues_events: true, push_events: false }), 201);
    await jsonBody(await post(`/projects/${project.id}/hooks`, { url: `${r.url}/secret`, confidential_issues_events: true, push_events: false }), 201);
    await jsonBody(await post(`/groups/${group.id}/hooks`, { url: `${r.url}/group`, issues_events: true }), 201);
    const assignee = await createUserWithToken(s);
    await jsonBody(await post(`/projects/${project.id}/members`, { user_id: assignee.id, access_level: 30 }), 201);

    const issue = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Crash", labels: "bug", assignee_ids: [assignee.id] }), 201);
    const at = (p: string) => r.requests.filter((q) => q.path === p);
    const find = (p: string, iid: number, action: string) => at(p).find((q) => attrs(q).iid === iid && attrs(q).action === action);
    const opened = await waitFor(() => find("/project", issue.iid, "open"), { message: "the open event on the project hook" });
    expect(opened.headers["x-service-event"]).toBe("Issue Hook");
    expect(opened.json).toMatchObject({
      object_kind: "issue",
      event_type: "issue",
      user: { username: "root" },
      project: { id: project.id, path_with_namespace: project.path_with_namespace },
      object_attributes: {
        id: issue.id,
        iid: issue.iid,
        title: "Crash",
        state: "opened",
        action: "open",
        url: `${s.url}/${project.path_with_namespace}/-/issues/${issue.iid}`,
      },
      labels: [{ title: "bug", type: "ProjectLabel" }],
      assignees: [{ id: assignee.id, username: assignee.username }],
      changes: { title: { previous: null, current: "Crash" } },
    });
    await waitFor(() => find("/group", issue.iid, "open"), { message: "the open event on the group hook" });

    await jsonBody(await put(`/projects/${project.id}/issues/${issue.iid}`, { title: "Crash on save", add_labels: "p1" }), 200);
    const updated = await waitFor(() => find("/project", issue.iid, "update"), { message: "the update event" });
    expect(updated.json?.changes).toMatchObject({
      title: { previous: "Crash", current: "Crash on save" },
      labels: { previous: [{ title: "bug" }], current: [{ title: "bug" }, { title: "p1" }] },
    });

    await jsonBody(await put(`/projects/${project.id}/issues/${issue.iid}`, { state_event: "close" }), 200);
    const closed = await waitFor(() => find("/project", issue.iid, "close"), { message: "the close event" });
    expect(closed.json).toMatchObject({ object_attributes: { state: "closed", action: "close" }, changes: { state_id: { previous: 1, current: 2 } } });
    await jsonBody(await put(`/projects/${project.id}/issues/${issue.iid}`, { state_event: "reopen" }), 200);
    await waitFor(() => find("/project", issue.iid, "reopen"), { message: "the reopen event" });

    const secret = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Leak", confidential: true }), 201);
    const confidential = await waitFor(() => find("/secret", secret.iid, "open"), { message: "the confidential issue event" });
    expect(confidential.headers["x-service-event"]).toBe("Confidential Issue Hook");
    expect(confidential.json).toMatchObject({ event_type: "confidential_issue", object_attributes: { confidential: true } });
    // Hooks without the confidential switch never hear of it, and the secret hook never heard the public issue.
    await waitFor(() => find("/group", issue.iid, "reopen"), { message: "the group hook caught up" });
    expect(at("/project").some((q) => attrs(q).iid === secret.iid)).toBe(false);
    expect(at("/group").some((q) => attrs(q).iid === secret.iid)).toBe(false);
    expect(at("/secret").some((q) => attrs(q).iid === issue.iid)).toBe(false);
  });
});
