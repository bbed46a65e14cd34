// Note (comment) events end to end: creating and editing comments on issues and project snippets
// through the API reaches project hooks and the project's groups' hooks with note_events on, with
// GitLab's payload (Gitlab::DataBuilder::Note) and the Note Hook header; internal notes and notes
// on confidential issues reach only hooks with confidential_note_events (Confidential Note Hook).
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIssue } from "./collab-api.ts";
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

const HOOK_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
const { post, put } = jsonRequests(() => s);
const attrs = (q: ReceivedRequest) => (q.json?.object_attributes ?? {}) as { id?: number; action?: string };

describe("note events", () => {
  it("comments on issues and snippets reach project and group hooks; internal ones only the confidential switch", async () => {
    const group = await jsonBody(await post("/groups", { name: "Talkers", path: "talkers", visibility: "public" }), 201);
    const project = await jsonBody(await post("/projects", { name: "Chat", namespace_id: group.id, visibility: "public", description: "words" }), 201);
    const path = project.path_with_namespace as string;

    // The hooks API takes and shows the note and issue switches on project and group hooks.
    const projectHook = await jsonBody(await post(`/projects/${project.id}/hooks`, { url: `${r.url}/project`, note_events: true, push_events: false }), 201);
    expect(projectHook).toMatchObject({ note_events: true, confidential_note_events: false, issues_events: false, confidential_issues_events: false });
    const secretHook = await jsonBody(
      await post(`/projects/${project.id}/hooks`, {
        url: `${r.url}/secret`,
        confidential_note_events: true,
        issues_events: true,
        confidential_issues_events: true,
        push_events: false,
      }),
      201,
    );
    expect(secretHook).toMatchObject({ note_events: false, confidential_note_events: true, issues_events: true, confidential_issues_events: true });
    const groupHook = await jsonBody(
      await post(`/groups/${group.id}/hooks`, { url: `${r.url}/group`, note_events: true, confidential_note_events: true }),
      201,
    );
    expect(groupHook).toMatchObject({ note_events: true, confidential_note_events: true, issues_events: false });
    const updated = await jsonBody(await put(`/groups/${group.id}/hooks/${groupHook.id}`, { issues_events: true, confidential_issues_events: true }), 200);
    expect(updated).toMatchObject({ issues_events: true, confidential_issues_events: true, note_events: true });
    expect(await jsonBody(await s.api(`/projects/${project.id}/hooks/${secretHook.id}`), 200)).toMatchObject({
      confidential_note_events: true,
      issues_events: true,
    });

    const root = await jsonBody(await s.api("/user"), 200);
    const author = await createUserWithToken(s);
    await jsonBody(await put(`/users/${author.id}`, { public_email: `${author.username}@example.com` }), 200);
    await jsonBody(await post(`/projects/${project.id}/members`, { user_id: author.id, access_level: 20 }), 201);
    const issue = await createIssue(s, project.id, { title: "Topic" });

    // A comment on an issue.
    const note = await jsonBody(await post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: "first!" }, author.token), 201);
    const at = (p: string) => r.requests.filter((q) => q.path === p);
    const find = (p: string, id: number, action = "create") => at(p).find((q) => attrs(q).id === id && attrs(q).action === action);
    const created = await waitFor(() => find("/project", note.id), { message: "note on the project hook" });
    expect(created.headers["x-service-event"]).toBe("Note Hook");
    const issueUrl = `${s.url}/${path}/-/issues/${issue.iid}`;
    const noteUrl = `${issueUrl}#note_${note.id}`;
    const host = new URL(s.url).hostname;
    const projectAttrs = {
      id: project.id,
      name: "Chat",
      description: "words",
      web_url: `${s.url}/${path}`,
      avatar_url: null,
      git_ssh_url: `git@${host}:${path}.git`,
      git_http_url: `${s.url}/${path}.git`,
      namespace: "Talkers",
      visibility_level: 20,
      path_with_namespace: path,
      default_branch: project.default_branch ?? null,
      ci_config_path: null,
      homepage: `${s.url}/${path}`,
      url: `git@${host}:${path}.git`,
      ssh_url: `git@${host}:${path}.git`,
      http_url: `${s.url}/${path}.git`,
    };
    expect(created.json).toEqual({
      object_kind: "note",
      event_type: "note",
      user: { id: author.id, name: expect.any(String), username: author.username, avatar_url: null, email: `${author.username}@example.com` },
      project_id: project.id,
      project: projectAttrs,
      object_attributes: {
        attachment: null,
        author_id: author.id,
        change_position: null,
        commit_id: null,
        created_at: expect.stringMatching(HOOK_TIME),
        discussion_id: expect.stringMatching(/^[0-9a-f]{40}$/),
        id: note.id,
        line_code: null,
        note: "first!",
        noteable_id: issue.id,
        noteable_type: "Issue",
        original_position: null,
        position: null,
        project_id: project.id,
        resolved_at: null,
        resolved_by_id: null,
        resolved_by_push: null,
        st_diff: null,
        system: false,
        type: null,
        updated_at: expect.stringMatching(HOOK_TIME),
        updated_by_id: null,
        description: "first!",
        url: noteUrl,
        action: "create",
      },
      repository: { name: "Chat", url: `git@${host}:${path}.git`, description: "words", homepage: `${s.url}/${path}` },
      issue: expect.objectContaining({
        id: issue.id,
        iid: issue.iid,
        title: "Topic",
        author_id: root.id,
        project_id: project.id,
        state: "opened",
        state_id: 1,
        confidential: false,
        url: issueUrl,
        labels: [],
        assignee_ids: [],
        created_at: expect.stringMatching(HOOK_TIME),
      }),
    });
    const viaGroup = await waitFor(() => find("/group", note.id), { message: "note on the group hook" });
    expect(viaGroup.json).toEqual(created.json);
    expect(viaGroup.headers["x-service-event"]).toBe("Note Hook");

    // An edit is an update event of the author's note; an unchanged body sends nothing.
    await jsonBody(await put(`/projects/${project.id}/issues/${issue.iid}/notes/${note.id}`, { body: "second!" }), 200);
    await jsonBody(await put(`/projects/${project.id}/issues/${issue.iid}/notes/${note.id}`, { body: "second!" }), 200);
    const edited = await waitFor(() => find("/project", note.id, "update"), { message: "edit on the project hook" });
    expect(edited.json).toMatchObject({
      object_kind: "note",
      event_type: "note",
      user: { id: author.id },
      object_attributes: { id: note.id, note: "second!", description: "second!", updated_by_id: root.id, action: "update", url: noteUrl },
    });
    await waitFor(() => find("/group", note.id, "update"), { message: "edit on the group hook" });

    // An internal note: confidential_note_events only (the project hook with note_events alone gets nothing).
    const internal = await jsonBody(await post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: "between us", internal: true }, author.token), 201);
    expect(internal).toMatchObject({ internal: true });
    const secret = await waitFor(() => find("/secret", internal.id), { message: "internal note on the confidential hook" });
    expect(secret.headers["x-service-event"]).toBe("Confidential Note Hook");
    expect(secret.json).toMatchObject({
      object_kind: "note",
      event_type: "confidential_note",
      object_attributes: { id: internal.id, note: "between us", action: "create" },
      issue: { id: issue.id },
    });
    const secretViaGroup = await waitFor(() => find("/group", internal.id), { message: "internal note on the group hook" });
    expect(secretViaGroup.headers["x-service-event"]).toBe("Confidential Note Hook");

    // Any note on a confidential issue is confidential.
    const hidden = await createIssue(s, project.id, { title: "Hush", confidential: true });
    const onHidden = await jsonBody(await post(`/projects/${project.id}/issues/${hidden.iid}/notes`, { body: "psst" }), 201);
    expect(await waitFor(() => find("/secret", onHidden.id), { message: "note on a confidential issue" })).toMatchObject({
      json: { event_type: "confidential_note", issue: { id: hidden.id, confidential: true } },
    });

    // A comment on a project snippet carries the snippet.
    const snippet = await jsonBody(
      await post(`/projects/${project.id}/snippets`, { title: "Snip", visibility: "public", file_name: "a.rb", content: "puts 1\n" }),
      201,
    );
    const snippetNote = await jsonBody(await post(`/projects/${project.id}/snippets/${snippet.id}/notes`, { body: "neat" }, author.token), 201);
    const onSnippet = await waitFor(() => find("/project", snippetNote.id), { message: "snippet note on the project hook" });
    const snippetUrl = `${s.url}/${path}/-/snippets/${snippet.id}`;
    expect(onSnippet.json).toEqual({
      object_kind: "note",
      event_type: "note",
      user: expect.objectContaining({ id: author.id, username: author.username }),
      project_id: project.id,
      project: projectAttrs,
      object_attributes: expect.objectContaining({
        id: snippetNote.id,
        note: "neat",
        noteable_type: "Snippet",
        noteable_id: snippet.id,
        url: `${snippetUrl}#note_${snippetNote.id}`,
        action: "create",
      }),
      repository: { name: "Chat", url: `git@${host}:${path}.git`, description: "words", homepage: `${s.url}/${path}` },
      snippet: {
        id: snippet.id,
        title: "Snip",
        description: null,
        author_id: root.id,
        project_id: project.id,
        created_at: expect.stringMatching(HOOK_TIME),
        updated_at: expect.stringMatching(HOOK_TIME),
        file_name: "a.rb",
        type: "ProjectSnippet",
        visibility_level: 20,
        url: snippetUrl,
      },
    });
    await waitFor(() => find("/group", snippetNote.id), { message: "snippet note on the group hook" });

    // Wait for the last deliveries, then check who got what.
    await waitFor(() => find("/group", onHidden.id), { message: "note on a confidential issue on the group hook" });
    // Issue events reach the hooks with issues_events too; these assertions are about comments.
    const ids = (p: string) =>
      at(p)
        .filter((q) => q.json?.object_kind === "note")
        .map((q) => `${attrs(q).id}:${attrs(q).action}`);
    expect(ids("/project").sort()).toEqual([`${note.id}:create`, `${note.id}:update`, `${snippetNote.id}:create`].sort());
    expect(ids("/secret").sort()).toEqual([`${internal.id}:create`, `${onHidden.id}:create`].sort());
    expect(ids("/group").sort()).toEqual(
      [`${note.id}:create`, `${note.id}:update`, `${internal.id}:create`, `${onHidden.id}:create`, `${snippetNote.id}:create`].sort(),
    );
    // Delivery records name GitLab's hooks scopes as triggers.
    const projectEvents = await jsonBody(await s.api(`/projects/${project.id}/hooks/${projectHook.id}/events`), 200);
    expect(new Set(projectEvents.map((e: { trigger: string }) => e.trigger))).toEqual(new Set(["note_hooks"]));
    const secretEvents = await jsonBody(await s.api(`/projects/${project.id}/hooks/${secretHook.id}/events`), 200);
    // The secret hook also takes issue events (issue_hooks, confidential_issue_hooks); of comments, only confidential ones.
    const secretTriggers = secretEvents.map((e: { trigger: string }) => e.trigger);
    expect(secretTriggers).toContain("confidential_note_hooks");
    expect(secretTriggers).not.toContain("note_hooks");
  });

  it("works through @gitbeaker/rest: hook switches on project and group hooks, and issue comments delivered", async () => {
    const api = s.gitlab();
    const group = await jsonBody(await post("/groups", { name: "Beakers", path: "beakers", visibility: "public" }), 201);
    const project = await jsonBody(await post("/projects", { name: "Lab", namespace_id: group.id, visibility: "public" }), 201);
    const hook = await api.ProjectHooks.add(project.id, `${r.url}/gb-project`, {
      noteEvents: true,
      confidentialIssuesEvents: true,
      pushEvents: false,
    } as never);
    expect(hook).toMatchObject({ note_events: true, confidential_note_events: false, issues_events: false, confidential_issues_events: true });
    const edited = await api.ProjectHooks.edit(project.id, hook.id, `${r.url}/gb-project`, { confidentialNoteEvents: true } as never);
    expect(edited).toMatchObject({ note_events: true, confidential_note_events: true });
    const ghook = await api.GroupHooks.add(group.id, `${r.url}/gb-group`, { issuesEvents: true, noteEvents: true } as never);
    expect(ghook).toMatchObject({ note_events: true, issues_events: true, confidential_note_events: false, confidential_issues_events: false });
    expect(await api.GroupHooks.show(group.id, ghook.id)).toMatchObject({ note_events: true, issues_events: true });

    const root = await jsonBody(await s.api("/user"), 200);
    const issue = await createIssue(s, project.id, { title: "Beaker" });
    const note = await api.IssueNotes.create(project.id, issue.iid, "via gitbeaker");
    const internal = await api.IssueNotes.create(project.id, issue.iid, "internal via gitbeaker", { internal: true } as never);
    for (const p of ["/gb-project", "/gb-group"]) {
      const got = await waitFor(() => r.requests.find((q) => q.path === p && attrs(q).id === note.id), { message: `note on ${p}` });
      expect(got.json).toMatchObject({ object_kind: "note", event_type: "note", user: { id: root.id }, object_attributes: { note: "via gitbeaker" } });
    }
    // The project hook takes confidential notes too now; the group hook does not.
    const secret = await waitFor(() => r.requests.find((q) => q.path === "/gb-project" && attrs(q).id === internal.id), { message: "internal note" });
    expect(secret.json).toMatchObject({ event_type: "confidential_note" });
    expect(r.requests.filter((q) => q.path === "/gb-group" && attrs(q).id === internal.id)).toEqual([]);
  });
});
