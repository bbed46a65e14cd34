// Merge request, pipeline, job and deployment events: fan-out to the project's hooks and its
// groups' hooks with the matching switch, GitLab's payloads and headers. Real bus, PostgreSQL and
// HTTP receiver; identity-service is stubbed.
import { randomUUID } from "node:crypto";
import { type DeploymentEvent, type JobEvent, type MergeRequestEvent, type PipelineEvent, Subjects } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { startFixture, startReceiver, type Fixture, type Receiver } from "../test-fixture.ts";

const project = {
  id: 9,
  name: "P",
  nameWithNamespace: "G / P",
  description: "",
  visibility: "public",
  defaultBranch: "main",
  pathWithNamespace: "g/p",
  namespace: { name: "G" },
  ciConfigPath: "",
  avatar: "",
};
const users: Record<number, { id: number; name: string; username: string; publicEmail: string; avatar: string }> = {
  5: { id: 5, name: "Ed", username: "ed", publicEmail: "", avatar: "" },
  6: { id: 6, name: "Al", username: "al", publicEmail: "", avatar: "" },
};
const ed = { id: 5, name: "Ed", username: "ed", avatar_url: null, email: "[REDACTED]" };
const al = { id: 6, name: "Al", username: "al", avatar_url: null, email: "[REDACTED]" };
const SHA = "a".repeat(40);

const pipelineEvent = (): PipelineEvent => ({
  event_id: randomUUID(),
  object_kind: "pipeline",
  user_id: 5,
  project_id: 9,
  object_attributes: { id: 31, iid: 2, ref: "feature", sha: SHA, source: "merge_request_event", status: "pending", url: "/g/p/-/pipelines/31" },
  merge_request: { id: 40, iid: 4, title: "T", url: "/g/p/-/merge_requests/4" },
  commit: { id: SHA, url: `/g/p/-/commit/${SHA}`, author: { name: "Ed", email: "ed@example.com" } },
  builds: [
    { id: 1, name: "build", status: "pending", user_id: 5, runner: null, environment: null },
    { id: 2, name: "deploy", status: "created", user_id: 6, runner: null, environment: { name: "production", action: "start", deployment_tier: "production" } },
  ],
});

describe("merge request and CI events", () => {
  let f: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await startFixture("hook_ci_events");
    r = await startReceiver();
    const gone = () => Promise.reject(Object.assign(new Error("5 NOT_FOUND"), { code: 5 }));
    const deps = f.svc.deps as { identity: HookDeps["identity"] };
    deps.identity = {
      ...deps.identity,
      GetGroupAncestors: async (req: { projectId?: number }) => (Number(req.projectId) === 9 ? { groupIds: [3, 1] } : gone()),
      GetProject: async (req: { idOrPath: string }) => (req.idOrPath === "9" ? project : gone()),
      GetUser: async (req: { id: number }) => users[Number(req.id)] ?? gone(),
      GetUsers: async (req: { ids: number[] }) => ({ users: req.ids.flatMap((id) => users[Number(id)] ?? []) }),
    } as unknown as HookDeps["identity"];
  });
  afterAll(async () => {
    await r?.close();
    await f?.stop();
  });

  const hook = async (owner: { projectId?: number; groupId?: number }, path: string, input: Record<string, unknown>) =>
    Number((await f.client.CreateHook({ owner, input: { url: `${r.url}${path}`, pushEvents: false, ...input } })).id);
  const at = (path: string) => r.requests.filter((q) => q.path === path);

  it("delivers pipeline events as Pipeline Hook, users expanded, URLs absolute, to project and group hooks", async () => {
    await hook({ projectId: 9 }, "/pipelines", { pipelineEvents: true });
    await hook({ groupId: 1 }, "/group-pipelines", { pipelineEvents: true });
    await hook({ projectId: 9 }, "/jobs-only", { jobEvents: true });
    await f.bus.publish(Subjects.pipeline, pipelineEvent());
    await waitFor(() => at("/pipelines").length === 1 && at("/group-pipelines").length === 1, { message: "pipeline hooks" });
    const q = at("/pipelines")[0]!;
    expect(q.headers["x-service-event"]).toBe("Pipeline Hook");
    const body = JSON.parse(q.body);
    expect(Object.keys(body).sort()).toEqual(["builds", "commit", "merge_request", "object_attributes", "object_kind", "project", "user"]);
    expect(body).toMatchObject({
      object_kind: "pipeline",
      object_attributes: { id: 31, url: "https://quarry.test/g/p/-/pipelines/31" },
      merge_request: { iid: 4, url: "https://quarry.test/g/p/-/merge_requests/4" },
      user: ed,
      project: expect.objectContaining({ id: 9, web_url: "https://quarry.test/g/p" }),
      commit: { id: SHA, url: `https://quarry.test/g/p/-/commit/${SHA}` },
      builds: [
        { id: 1, name: "build", user: ed, environment: null },
        { id: 2, name: "deploy", user: al, environment: { name: "production", action: "start", deployment_tier: "production" } },
      ],
    });
    expect(body.builds[0].user_id).toBeUndefined();
    expect(at("/jobs-only")).toEqual([]);
  });

  it("delivers job events as Job Hook with project_name, user, repository and project", async () => {
    await hook({ projectId: 9 }, "/jobs", { jobEvents: true });
    const event: JobEvent = {
      event_id: randomUUID(),
      object_kind: "build",
      ref: "main",
      tag: false,
      before_sha: "0".repeat(40),
      sha: SHA,
      build_id: 77,
      build_name: "rspec",
      build_stage: "test",
      build_status: "running",
      retries_count: 0,
      pipeline_id: 31,
      runner: null,
      project_id: 9,
      user_id: 5,
      commit: { id: 31, sha: SHA, status: "running" },
      environment: null,
    };
    await f.bus.publish(Subjects.job, event);
    await waitFor(() => at("/jobs").length === 1, { message: "job hook" });
    const q = at("/jobs")[0]!;
    expect(q.headers["x-service-event"]).toBe("Job Hook");
    const body = JSON.parse(q.body);
    expect(body).toMatchObject({
      object_kind: "build",
      build_id: 77,
      build_status: "running",
      pipeline_id: 31,
      project_id: 9,
      project_name: "G / P",
      user: ed,
      commit: { id: 31, sha: SHA },
      repository: {
        name: "P",
        url: "git@quarry.test:g/p.git",
        homepage: "https://quarry.test/g/p",
        git_http_url: "https://quarry.test/g/p.git",
        visibility_level: 20,
      },
      project: expect.objectContaining({ id: 9 }),
      environment: null,
      retries_count: 0,
    });
    expect(body.event_id).toBeUndefined();
    expect(body.user_id).toBeUndefined();
  });

  it("delivers deployment events as Deployment Hook with user_url and absolute URLs", async () => {
    await hook({ projectId: 9 }, "/deployments", { deploymentEvents: true });
    const event: DeploymentEvent = {
      event_id: randomUUID(),
      object_kind: "deployment",
      status: "success",
      status_changed_at: "2026-11-26 05:00:00 UTC",
      deployment_id: 12,
      deployable_id: 77,
      deployable_url: "/g/p/-/jobs/77",
      environment: "production",
      environment_tier: "production",
      environment_slug: "production",
      environment_external_url: null,
      project_id: 9,
      short_sha: SHA.slice(0, 8),
      user_id: 5,
      commit_url: `/g/p/-/commit/${SHA}`,
      commit_title: "Deploy",
      ref: "main",
    };
    await f.bus.publish(Subjects.deployment, event);
    await waitFor(() => at("/deployments").length === 1, { message: "deployment hook" });
    const q = at("/deployments")[0]!;
    expect(q.headers["x-service-event"]).toBe("Deployment Hook");
    expect(JSON.parse(q.body)).toEqual({
      object_kind: "deployment",
      status: "success",
      status_changed_at: "2026-11-26 05:00:00 UTC",
      deployment_id: 12,
      deployable_id: 77,
      deployable_url: "https://quarry.test/g/p/-/jobs/77",
      environment: "production",
      environment_tier: "production",
      environment_slug: "production",
      environment_external_url: null,
      project: expect.objectContaining({ id: 9, path_with_namespace: "g/p" }),
      short_sha: SHA.slice(0, 8),
      user: ed,
      user_url: "https://quarry.test/ed",
      commit_url: `https://quarry.test/g/p/-/commit/${SHA}`,
      commit_title: "Deploy",
      ref: "main",
    });
  });

  it("delivers merge request events as Merge Request Hook without the ci block, assignees and reviewers expanded", async () => {
    await hook({ projectId: 9 }, "/mrs", { mergeRequestsEvents: true });
    const event: MergeRequestEvent = {
      event_id: randomUUID(),
      event_name: "merge_request",
      object_kind: "merge_request",
      event_type: "merge_request",
      user_id: 5,
      project_id: 9,
      object_attributes: { id: 40, iid: 4, source_branch: "feature", target_branch: "main", action: "update", url: "/g/p/-/merge_requests/4" },
      labels: [],
      changes: { reviewers: { previous: [], current: [5] } },
      assignee_ids: [6],
      reviewer_ids: [5],
      ci: { head_sha: SHA, diff_base_sha: SHA, title: "T", description: "", labels: [], assignee_usernames: ["al"], milestone_title: null, draft: false },
    };
    await f.bus.publish(Subjects.mergeRequest, event);
    await waitFor(() => at("/mrs").length === 1, { message: "merge request hook" });
    const q = at("/mrs")[0]!;
    expect(q.headers["x-service-event"]).toBe("Merge Request Hook");
    const body = JSON.parse(q.body);
    expect(Object.keys(body).sort()).toEqual([
      "assignees",
      "changes",
      "event_type",
      "labels",
      "object_attributes",
      "object_kind",
      "project",
      "repository",
      "reviewers",
      "user",
    ]);
    expect(body).toMatchObject({
      user: ed,
      object_attributes: { iid: 4, url: "https://quarry.test/g/p/-/merge_requests/4", action: "update" },
      changes: { reviewers: { previous: [], current: [ed] } },
      assignees: [al],
      reviewers: [ed],
    });
    expect(body.ci).toBeUndefined();
  });
});
