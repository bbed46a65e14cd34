// Comments, emoji reactions and resource events of merge requests end to end, through the same
// routes as issues' (notes.rb, award_emoji.rb, resource_*_events.rb mount merge_requests too).
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { addMember, commitFiles, createMergeRequest, createProject } from "./mr-api.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

let s: TestStack;
let r: Receiver;
const { post, put, del } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack(undefined, { hookSettings: { maxAttempts: 2, retryBaseMs: 20, timeoutMs: 3000, pollIntervalMs: 50 } });
  r = await startReceiver();
}, 60_000);
afterAll(async () => {
  await r?.close();
  await s?.destroy();
});

describe("merge request notes", () => {
  it("creates, lists, reads, edits and deletes comments on a merge request as on an issue", async () => {
    const project = await createProject(s, { visibility: "public" });
    const [guest, reporter] = [await createUserWithToken(s), await createUserWithToken(s)];
    await addMember(s, project.id, guest.id, 10);
    await addMember(s, project.id, reporter.id, 20);
    await commitFiles(s, project.id, "feature", { "f.txt": "f\n" }, { startBranch: "main" });
    const mr = await createMergeRequest(s, project.id, { source_branch: "feature" });
    const base = `/projects/${project.id}/merge_requests/${mr.iid}/notes`;

    const note = await jsonBody(await post(base, { body: "Looks good", merge_request_diff_head_sha: mr.sha }, guest.token), 201);
    expect(note).toMatchObject({
      body: "Looks good",
      author: { username: guest.username },
      system: false,
      noteable_id: mr.id,
      noteable_type: "MergeRequest",
      noteable_iid: mr.iid,
      project_id: project.id,
      internal: false,
      confidential: false,
    });
    const internal = await jsonBody(await post(base, { body: "Reporters only", internal: true }, reporter.token), 201);
    expect(internal.internal).toBe(true);
    const seen = async (token: string) => ((await jsonBody(await s.api(`${base}?sort=asc`, { token }), 200)) as { body: string }[]).map((n) => n.body);
    expect(await seen(reporter.token)).toEqual(["Looks good", "Reporters only"]);
    expect(await seen(guest.token)).toEqual(["Looks good"]);
    expect(await jsonBody(await s.api(`${base}/${internal.id}`, { token: guest.token }), 404)).toEqual({ message: "404 Note Not Found" });
    expect((await jsonBody(await s.api(`${base}/${note.id}`, { token: guest.token }), 200)).body).toBe("Looks good");
    expect((await jsonBody(await put(`${base}/${note.id}`, { body: "Looks great" }, guest.token), 200)).body).toBe("Looks great");
    expect((await jsonBody(await s.api(`/projects/${project.id}/merge_requests/${mr.iid}`), 200)).user_notes_count).toBe(2);
    expect((await del(`${base}/${note.id}`, guest.token)).status).toBe(204);
    expect(await seen(reporter.token)).toEqual(["Reporters only"]);

    // Unknown merge requests are ActiveRecord's `404 Not found`; notes want a signed-in caller.
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests/99/notes`), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests/0/notes`), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await s.api(base, { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
  });

  it("keeps merge requests of private projects from Guests", async () => {
    const project = await createProject(s, { visibility: "private" });
    const guest = await createUserWithToken(s);
    await addMember(s, project.id, guest.id, 10);
    await commitFiles(s, project.id, "feature", { "f.txt": "f\n" }, { startBranch: "main" });
    const mr = await createMergeRequest(s, project.id, { source_branch: "feature" });
    expect(await jsonBody(await post(`/projects/${project.id}/merge_requests/${mr.iid}/notes`, { body: "hi" }, guest.token), 404)).toEqual({
      message: "404 Not found",
    });
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests`, { token: guest.token }), 403)).toEqual({ message: "403 Forbidden" });
  });
});

describe("merge request note and emoji webhooks", () => {
  // collab-service's events carry the merge request's hook attributes under `merge_request`
  // (src/note/merge-request-notes.test.ts); hook-service adds that key to deliveries on its side.
  it("delivers comments and reactions on merge requests to project hooks", async () => {
    const project = await createProject(s, { visibility: "public" });
    await jsonBody(await post(`/projects/${project.id}/hooks`, { url: `${r.url}/mr`, note_events: true, emoji_events: true, push_events: false }), 201);
    await commitFiles(s, project.id, "feature", { "f.txt": "f\n" }, { startBranch: "main" });
    const mr = await createMergeRequest(s, project.id, { source_branch: "feature", title: "Hooked" });
    const note = await jsonBody(await post(`/projects/${project.id}/merge_requests/${mr.iid}/notes`, { body: "hello" }), 201);
    await jsonBody(await post(`/projects/${project.id}/merge_requests/${mr.iid}/award_emoji`, { name: "tada" }), 201);
    const mine = () => r.requests.filter((q) => q.path === "/mr");
    await waitFor(() => mine().length >= 2);
    const noteHook = mine().find((q) => q.json?.object_kind === "note")!;
    expect(noteHook.headers["x-service-event"]).toBe("Note Hook");
    expect(noteHook.json).toMatchObject({
      object_kind: "note",
      event_type: "note",
      project_id: project.id,
      object_attributes: {
        id: note.id,
        note: "hello",
        noteable_type: "MergeRequest",
        noteable_id: mr.id,
        action: "create",
        url: `${s.url}/${project.path_with_namespace}/-/merge_requests/${mr.iid}#note_${note.id}`,
      },
    });
    const emojiHook = mine().find((q) => q.json?.object_kind === "emoji")!;
    expect(emojiHook.json).toMatchObject({
      object_attributes: {
        name: "tada",
        awardable_type: "MergeRequest",
        awardable_id: mr.id,
        awarded_on_url: `${s.url}/${project.path_with_namespace}/-/merge_requests/${mr.iid}`,
      },
    });
  });
});

describe("merge request award emoji and resource events", () => {
  it("awards a merge request and its comments, and lists its label and milestone events", async () => {
    const project = await createProject(s, { visibility: "public" });
    const milestone = await jsonBody(await post(`/projects/${project.id}/milestones`, { title: "v1" }), 201);
    await commitFiles(s, project.id, "feature", { "f.txt": "f\n" }, { startBranch: "main" });
    const mr = await createMergeRequest(s, project.id, { source_branch: "feature", labels: "bug", milestone_id: milestone.id });
    const base = `/projects/${project.id}/merge_requests/${mr.iid}`;

    const award = await jsonBody(await post(`${base}/award_emoji`, { name: "thumbsup" }), 201);
    expect(award).toMatchObject({ name: "thumbsup", awardable_type: "MergeRequest", awardable_id: mr.id, user: { username: "root" } });
    expect((await jsonBody(await s.api(`${base}/award_emoji`, { token: null }), 200)).map((a: { name: string }) => a.name)).toEqual(["thumbsup"]);
    expect((await jsonBody(await s.api(base), 200)).upvotes).toBe(1);
    const note = await jsonBody(await post(`${base}/notes`, { body: "nice" }), 201);
    const onNote = await jsonBody(await post(`${base}/notes/${note.id}/award_emoji`, { name: "tada" }), 201);
    expect(onNote).toMatchObject({ name: "tada", awardable_type: "Note", awardable_id: note.id });
    expect((await del(`${base}/award_emoji/${award.id}`)).status).toBe(204);
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests/7/award_emoji`), 404)).toEqual({ message: "404 Not found" });

    const labelEvents = await jsonBody(await s.api(`${base}/resource_label_events`), 200);
    expect(labelEvents).toEqual([
      expect.objectContaining({ resource_type: "MergeRequest", resource_id: mr.id, action: "add", label: expect.objectContaining({ name: "bug" }) }),
    ]);
    const one = await jsonBody(await s.api(`${base}/resource_label_events/${labelEvents[0].id}`), 200);
    expect(one.id).toBe(labelEvents[0].id);
    const milestoneEvents = await jsonBody(await s.api(`${base}/resource_milestone_events`), 200);
    expect(milestoneEvents).toEqual([
      expect.objectContaining({ resource_type: "MergeRequest", action: "add", milestone: expect.objectContaining({ title: "v1" }) }),
    ]);
    expect(await jsonBody(await s.api(`${base}/resource_state_events`), 200)).toEqual([]);
    expect(await jsonBody(await s.api(`${base}/resource_state_events/999999`), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests/5/resource_label_events`), 404)).toEqual({ message: "404 Not found" });
  });
});
