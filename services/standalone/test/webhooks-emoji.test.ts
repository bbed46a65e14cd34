// Emoji events end to end: awarding and revoking emoji through the API reaches project hooks and
// the project's groups' hooks with emoji_events on, with GitLab's payload (Gitlab::DataBuilder::Emoji)
// and the Emoji Hook event header.
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIssue, createIssueNote } from "./collab-api.ts";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
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

const HOOK_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
const { post } = jsonRequests(() => s);

describe("emoji events", () => {
  it("award and revoke reach project and group hooks with emoji_events on, as GitLab builds them", async () => {
    const group = await jsonBody(await post("/groups", { name: "Reactors", path: "reactors", visibility: "public" }), 201);
    const project = await jsonBody(await post("/projects", { name: "Flight", namespace_id: group.id, visibility: "public", description: "planes" }), 201);
    const projectHook = await jsonBody(await post(`/projects/${project.id}/hooks`, { url: `${r.url}/project`, emoji_events: true, push_events: false }), 201);
    expect(projectHook).toMatchObject({ emoji_events: true, push_events: false });
    expect(await jsonBody(await s.api(`/projects/${project.id}/hooks/${projectHook.id}`), 200)).toMatchObject({ emoji_events: true });
    await jsonBody(await post(`/projects/${project.id}/hooks`, { url: `${r.url}/project-off`, issues_events: true }), 201);
    const groupHook = await jsonBody(await post(`/groups/${group.id}/hooks`, { url: `${r.url}/group`, emoji_events: true }), 201);
    expect(groupHook).toMatchObject({ emoji_events: true });

    const root = await jsonBody(await s.api("/user"), 200);
    const fan = await createUserWithToken(s);
    await jsonBody(await s.api(`/users/${fan.id}`, { method: "PUT", json: { public_email: `${fan.username}@example.com` } }), 200);
    const issue = await createIssue(s, project.id, { title: "Wings" });
    const award = await jsonBody(await post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { name: "+1" }, fan.token), 201);

    const at = (path: string) => r.requests.filter((q) => q.path === path);
    const awarded = await waitFor(() => at("/project").find((q) => q.json?.event_type === "award"), { message: "award on the project hook" });
    expect(awarded.headers["x-service-event"]).toBe("Emoji Hook");
    expect(awarded.headers["content-type"]).toBe("application/json");
    const issueUrl = `${s.url}/${project.path_with_namespace}/-/issues/${issue.iid}`;
    const host = new URL(s.url).hostname;
    expect(awarded.json).toEqual({
      object_kind: "emoji",
      event_type: "award",
      user: { id: fan.id, name: expect.any(String), username: fan.username, avatar_url: null, email: `${fan.username}@example.com` },
      project_id: project.id,
      project: {
        id: project.id,
        name: "Flight",
        description: "planes",
        web_url: `${s.url}/${project.path_with_namespace}`,
        avatar_url: null,
        git_ssh_url: `git@${host}:${project.path_with_namespace}.git`,
        git_http_url: `${s.url}/${project.path_with_namespace}.git`,
        namespace: "Reactors",
        visibility_level: 20,
        path_with_namespace: project.path_with_namespace,
        default_branch: project.default_branch ?? null,
        ci_config_path: null,
        homepage: `${s.url}/${project.path_with_namespace}`,
        url: `git@${host}:${project.path_with_namespace}.git`,
        ssh_url: `git@${host}:${project.path_with_namespace}.git`,
        http_url: `${s.url}/${project.path_with_namespace}.git`,
      },
      object_attributes: {
        user_id: fan.id,
        created_at: expect.stringMatching(HOOK_TIME),
        id: award.id,
        name: "thumbsup",
        awardable_type: "Issue",
        awardable_id: issue.id,
        updated_at: expect.stringMatching(HOOK_TIME),
        awarded_on_url: issueUrl,
      },
      issue: expect.objectContaining({
        id: issue.id,
        iid: issue.iid,
        title: "Wings",
        author_id: root.id,
        project_id: project.id,
        state: "opened",
        confidential: false,
        url: issueUrl,
        labels: [],
        assignee_ids: [],
        created_at: expect.stringMatching(HOOK_TIME),
      }),
    });
    const viaGroup = await waitFor(() => at("/group").find((q) => q.json?.event_type === "award"), { message: "award on the group hook" });
    expect(viaGroup.json).toEqual(awarded.json);

    // A note's award carries the note and its issue.
    const note = await createIssueNote(s, project.id, issue.iid, { body: "ship it" });
    const noteAward = await jsonBody(
      await post(`/projects/${project.id}/issues/${issue.iid}/notes/${note.id}/award_emoji`, { name: "rocket" }, fan.token),
      201,
    );
    const onNote = await waitFor(() => at("/project").find((q) => (q.json?.object_attributes as { id?: number } | undefined)?.id === noteAward.id), {
      message: "award on the note",
    });
    const noteUrl = `${issueUrl}#note_${note.id}`;
    expect(onNote.json).toMatchObject({
      object_kind: "emoji",
      event_type: "award",
      object_attributes: { name: "rocket", awardable_type: "Note", awardable_id: note.id, awarded_on_url: noteUrl },
      note: { id: note.id, note: "ship it", description: "ship it", noteable_type: "Issue", noteable_id: issue.id, author_id: root.id, url: noteUrl },
      issue: { id: issue.id, url: issueUrl },
    });

    // Revoking, even by an administrator, is the award owner's revoke (GitLab's DestroyService).
    await jsonBody(await s.api(`/projects/${project.id}/issues/${issue.iid}/award_emoji/${award.id}`, { method: "DELETE" }), 204);
    const revoked = await waitFor(() => at("/project").find((q) => q.json?.event_type === "revoke"), { message: "revoke" });
    expect(revoked.headers["x-service-event"]).toBe("Emoji Hook");
    expect(revoked.json).toMatchObject({
      object_kind: "emoji",
      event_type: "revoke",
      user: { id: fan.id },
      object_attributes: { id: award.id, name: "thumbsup", awardable_type: "Issue" },
    });
    await waitFor(() => at("/group").find((q) => q.json?.event_type === "revoke"), { message: "revoke on the group hook" });
    // It hears the issue being opened (issues_events), never an emoji event.
    expect(at("/project-off").filter((q) => q.json?.object_kind === "emoji")).toEqual([]);
    expect(at("/project-off").map((q) => q.json?.object_kind)).toContain("issue");
    // Delivery records name the trigger as GitLab does.
    const events = await jsonBody(await s.api(`/projects/${project.id}/hooks/${projectHook.id}/events`), 200);
    expect(events.map((e: { trigger: string }) => e.trigger)).toContain("emoji_hooks");
  });
});
