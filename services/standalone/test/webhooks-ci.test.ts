// Pipeline, job, deployment and merge request webhooks end to end: a push creates a pipeline, a
// runner (speaking the runner API) runs its deploying job, and a local receiver gets GitLab's
// Pipeline Hook, Job Hook and Deployment Hook payloads for every status change; a merge request
// event (published as collab-service does) arrives as a Merge Request Hook without its `ci` block.
import { randomUUID } from "node:crypto";
import { type MergeRequestEvent, Subjects } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instanceRunner, reportJob, requestJobAs } from "./ci-fixture.ts";
import { jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { startReceiver, type ReceivedRequest, type Receiver } from "./webhook-receiver.ts";

const CI = `
deploy:
  script: deploy
  environment: { name: production, url: https://prod.example.com }
`;

let s: TestStack;
let r: Receiver;
let projectId: number;
let path: string;
let hookId: number;
const { post } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack(undefined, { hookSettings: { maxAttempts: 2, retryBaseMs: 20, timeoutMs: 3000, pollIntervalMs: 50 } });
  r = await startReceiver();
  const project = await jsonBody(await post("/projects", { name: "hooked", initialize_with_readme: true }), 201);
  projectId = project.id;
  path = project.path_with_namespace;
  ({ id: hookId } = await jsonBody(
    await post(`/projects/${projectId}/hooks`, {
      url: `${r.url}/ci`,
      push_events: false,
      pipeline_events: true,
      job_events: true,
      deployment_events: true,
      merge_requests_events: true,
    }),
    201,
  ));
  await jsonBody(await post(`/projects/${projectId}/hooks`, { url: `${r.url}/push-only`, push_events: true }), 201);
}, 120_000);
afterAll(async () => {
  await r?.close();
  await s?.destroy();
});

const byHeader = (header: string) => r.requests.filter((q) => q.path === "/ci" && q.headers["x-service-event"] === header);
const field = (q: ReceivedRequest, ...keys: string[]) => keys.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], q.json);

describe("CI webhooks", () => {
  it("sends Pipeline, Job and Deployment hooks as the pipeline runs", async () => {
    const sha = (await s.gitlab().Commits.create(projectId, "main", "Add CI", [{ action: "create", filePath: ".gitlab-ci.yml", content: CI }])).id;
    const runner = await instanceRunner(s);
    await waitFor(() => byHeader("Job Hook").find((q) => q.json?.build_status === "pending"), { message: "the job's pending hook" });
    const job = await requestJobAs(s, runner);
    await reportJob(s, job, "success");

    const pipelineStatuses = () => byHeader("Pipeline Hook").map((q) => field(q, "object_attributes", "status"));
    await waitFor(() => pipelineStatuses().includes("success"), { message: "the pipeline's success hook" });
    // Deliveries to one hook may overtake each other: compare the statuses heard, not their order.
    expect(pipelineStatuses().sort()).toEqual(["created", "pending", "running", "success"]);
    const done = byHeader("Pipeline Hook").find((q) => field(q, "object_attributes", "status") === "success")!;
    expect(done.json).toMatchObject({
      object_kind: "pipeline",
      object_attributes: {
        ref: "main",
        sha,
        source: "push",
        status: "success",
        detailed_status: "passed",
        stages: ["test"],
        url: `${s.url}/${path}/-/pipelines/${field(done, "object_attributes", "id")}`,
      },
      merge_request: null,
      user: { username: "root" },
      project: { id: projectId, path_with_namespace: path },
      commit: { id: sha, title: "Add CI", url: `${s.url}/${path}/-/commit/${sha}` },
      builds: [
        {
          id: job.id,
          name: "deploy",
          status: "success",
          user: { username: "root" },
          environment: { name: "production", action: "start", deployment_tier: "production" },
        },
      ],
    });

    const jobStatuses = () => byHeader("Job Hook").map((q) => q.json?.build_status);
    await waitFor(() => jobStatuses().includes("success"), { message: "the job's success hook" });
    expect(jobStatuses().sort()).toEqual(["created", "pending", "running", "success"]);
    expect(byHeader("Job Hook").find((q) => q.json?.build_status === "success")!.json).toMatchObject({
      object_kind: "build",
      ref: "main",
      sha,
      build_id: job.id,
      build_name: "deploy",
      build_stage: "test",
      build_status: "success",
      project_id: projectId,
      user: { username: "root" },
      commit: { sha, status: expect.any(String) },
      repository: { homepage: `${s.url}/${path}`, git_http_url: `${s.url}/${path}.git` },
      environment: { name: "production", action: "start" },
    });

    await waitFor(() => byHeader("Deployment Hook").length === 2, { message: "the deployment's running and success hooks" });
    expect(
      byHeader("Deployment Hook")
        .map((q) => q.json?.status)
        .sort(),
    ).toEqual(["running", "success"]);
    expect(byHeader("Deployment Hook").find((q) => q.json?.status === "success")!.json).toMatchObject({
      object_kind: "deployment",
      status: "success",
      deployable_id: job.id,
      deployable_url: `${s.url}/${path}/-/jobs/${job.id}`,
      environment: "production",
      environment_slug: "production",
      environment_tier: "production",
      environment_external_url: "https://prod.example.com",
      project: { id: projectId },
      short_sha: sha.slice(0, 8),
      user: { username: "root" },
      user_url: `${s.url}/root`,
      commit_url: `${s.url}/${path}/-/commit/${sha}`,
      commit_title: "Add CI",
      ref: "main",
    });
    // Hooks without these switches hear none of it.
    expect(r.requests.filter((q) => q.path === "/push-only").every((q) => q.headers["x-service-event"] === "Push Hook")).toBe(true);
  }, 120_000);

  it("sends a merge request event as a Merge Request Hook without the ci block", async () => {
    const event: MergeRequestEvent = {
      event_id: randomUUID(),
      event_name: "merge_request",
      object_kind: "merge_request",
      event_type: "merge_request",
      user_id: 1,
      project_id: projectId,
      object_attributes: { action: "close", id: 70, iid: 7, source_branch: "topic", target_branch: "main", url: `/${path}/-/merge_requests/7` },
      labels: [],
      changes: {},
      assignee_ids: [1],
      reviewer_ids: [],
      ci: {
        head_sha: "a".repeat(40),
        diff_base_sha: "",
        title: "T",
        description: "",
        labels: [],
        assignee_usernames: ["root"],
        milestone_title: null,
        draft: false,
      },
    };
    await s.bus.publish(Subjects.mergeRequest, event);
    const q = await waitFor(() => byHeader("Merge Request Hook")[0], { message: "the merge request hook" });
    expect(q.json).toMatchObject({
      object_kind: "merge_request",
      event_type: "merge_request",
      user: { username: "root" },
      project: { id: projectId },
      object_attributes: { iid: 7, action: "close", url: `${s.url}/${path}/-/merge_requests/7` },
      repository: { homepage: `${s.url}/${path}` },
      assignees: [{ username: "root" }],
    });
    expect(q.json?.ci).toBeUndefined();
  });

  it("tests the hook with the project's newest recorded event of the trigger, or GitLab's 422 when there is none", async () => {
    const before = byHeader("Pipeline Hook").length;
    const res = await post(`/projects/${projectId}/hooks/${hookId}/test/pipeline_events`, {});
    expect(res.status, await res.clone().text()).toBe(201);
    await waitFor(() => byHeader("Pipeline Hook").length === before + 1, { message: "the test pipeline hook" });
    const sample = byHeader("Pipeline Hook").at(-1)!;
    expect(sample.json).toMatchObject({ object_kind: "pipeline", project: { id: projectId }, user: { username: "root" } });
    expect(await jsonBody(await post(`/projects/${projectId}/hooks/${hookId}/test/deployment_events`, {}), 201)).toBeDefined();

    const empty = await jsonBody(await post("/projects", { name: "quiet" }), 201);
    const quiet = await jsonBody(await post(`/projects/${empty.id}/hooks`, { url: `${r.url}/quiet`, job_events: true }), 201);
    expect(await jsonBody(await post(`/projects/${empty.id}/hooks/${quiet.id}/test/job_events`, {}), 422)).toEqual({
      message: "Ensure the project has CI jobs.",
    });
  });
});
