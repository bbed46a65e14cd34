// Merge requests seen from outside: the Merge Request Hooks hook-service sends for collab-service's
// events (open, update by a push with `oldrev`, close), and the merge request pipelines ci-service
// creates from them on refs/merge-requests/<iid>/head.
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { commitFiles, createMergeRequest, createProject, type TestProject } from "./mr-api.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

const CI = `
mr-job:
  script: [echo merge request]
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
`;

let s: TestStack;
let r: Receiver;
let project: TestProject;
const { post, put } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack(undefined, { hookSettings: { maxAttempts: 2, retryBaseMs: 20, timeoutMs: 3000, pollIntervalMs: 50 } });
  r = await startReceiver();
  project = await createProject(s);
  await commitFiles(s, project.id, "main", { ".gitlab-ci.yml": CI });
  await jsonBody(await post(`/projects/${project.id}/hooks`, { url: `${r.url}/mr`, push_events: false, merge_requests_events: true }), 201);
}, 120_000);
afterAll(async () => {
  await r?.close();
  await s?.destroy();
});

// biome-ignore lint/suspicious/noExplicitAny: webhook JSON is read freely.
type Json = Record<string, any>;
const hooks = () => r.requests.filter((q) => q.path === "/mr" && q.headers["x-service-event"] === "Merge Request Hook").map((q) => q.json as Json);

describe("merge request events", () => {
  it("sends Merge Request Hooks and runs merge request pipelines on open and on pushes", async () => {
    const first = await commitFiles(s, project.id, "feature", { "a.txt": "a\n" }, { startBranch: "main", message: "Add a" });
    const mr = await createMergeRequest(s, project.id, { source_branch: "feature", title: "Add a", labels: "ci" });
    const open = await waitFor(() => hooks().find((h) => h.object_attributes.action === "open"), { message: "the open hook" });
    expect(open).toMatchObject({
      object_kind: "merge_request",
      event_type: "merge_request",
      user: { username: "root" },
      project: { id: project.id, path_with_namespace: project.path_with_namespace },
      object_attributes: {
        id: mr.id,
        iid: 1,
        title: "Add a",
        state: "opened",
        source_branch: "feature",
        target_branch: "main",
        url: `${s.url}/${project.path_with_namespace}/-/merge_requests/1`,
        last_commit: { id: first.id, title: "Add a" },
        detailed_merge_status: "unchecked",
      },
      labels: [{ title: "ci" }],
    });
    expect(open.ci).toBeUndefined();
    const pipelines = async () => jsonBody(await s.api(`/projects/${project.id}/merge_requests/1/pipelines`), 200);
    const opened = await waitFor(async () => ((await pipelines()).length === 1 ? await pipelines() : undefined), { message: "the open pipeline" });
    expect(opened[0]).toMatchObject({ sha: first.id, ref: "refs/merge-requests/1/head", source: "merge_request_event" });

    const second = await commitFiles(s, project.id, "feature", { "b.txt": "b\n" }, { message: "Add b" });
    const update = await waitFor(() => hooks().find((h) => h.object_attributes.action === "update" && h.object_attributes.oldrev === first.id), {
      message: "the push's update hook",
    });
    expect(update.object_attributes.last_commit.id).toBe(second.id);
    const both = await waitFor(async () => {
      const list = await pipelines();
      return list.length === 2 ? list : undefined;
    });
    expect(both.map((p: { sha: string }) => p.sha)).toEqual([second.id, first.id]);

    await jsonBody(await put(`/projects/${project.id}/merge_requests/1`, { state_event: "close" }), 200);
    const closed = await waitFor(() => hooks().find((h) => h.object_attributes.action === "close"), { message: "the close hook" });
    expect(closed.object_attributes.state).toBe("closed");
    expect(closed.changes.state_id).toEqual({ previous: 1, current: 2 });
  });
});
