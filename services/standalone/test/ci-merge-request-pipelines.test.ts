// Merge request pipelines end to end: a merge request event on the bus (collab-service publishes
// it; its create endpoint is not here yet, so the test publishes what it would) makes ci-service
// create a merge_request_event pipeline on refs/merge-requests/<iid>/head, which the built-in
// runner fetches and runs; the job's trace shows the CI_MERGE_REQUEST_* variables.
import { randomUUID } from "node:crypto";
import { type MergeRequestEvent, Subjects } from "@quarry/bus";
import { createClient } from "@quarry/grpc";
import { identityV1, repoV1 } from "@quarry/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

const CI = `
mr-job:
  script:
    - echo "iid=$CI_MERGE_REQUEST_IID source=$CI_MERGE_REQUEST_SOURCE_BRANCH_NAME target=$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
    - echo "title=$CI_MERGE_REQUEST_TITLE labels=$CI_MERGE_REQUEST_LABELS ref=$CI_COMMIT_REF_NAME branch=[\${CI_COMMIT_BRANCH:-unset}]"
    - echo "source=$CI_PIPELINE_SOURCE path=$CI_MERGE_REQUEST_REF_PATH"
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
`;

let s: TestStack;
let projectId: number;
let headSha: string;

beforeAll(async () => {
  s = await startTestStack(undefined, { runner: true, runnerPollIntervalMs: 200, jobRequestWaitMs: 2_000 });
  const api = s.gitlab();
  const project = await api.Projects.create({ name: "mr-pipelines", initializeWithReadme: true });
  projectId = project.id;
  await api.Commits.create(projectId, "main", "Add CI", [{ action: "create", filePath: ".gitlab-ci.yml", content: CI }]);
  await api.Branches.create(projectId, "feature", "main");
  headSha = (await api.Commits.create(projectId, "feature", "Feature work", [{ action: "create", filePath: "feature.txt", content: "x\n" }])).id;
  // What collab-service does when a merge request is opened: point its head ref at the source branch.
  const identity = createClient(identityV1.IdentityService, s.addresses.identity, { deadlineMs: 10_000 });
  const repo = createClient(repoV1.RepoService, s.addresses.repo, { deadlineMs: 10_000 });
  const { diskPath } = await identity.GetProject({ actor: { userId: 1, isAdmin: true }, idOrPath: String(projectId) });
  await repo.WriteMergeRequestRef({ diskPath, iid: 1, kind: "head", sha: headSha, expectedOldSha: "" });
  identity.close();
  repo.close();
}, 120_000);
afterAll(() => s?.destroy());

function opened(): MergeRequestEvent {
  return {
    event_id: randomUUID(),
    event_name: "merge_request",
    object_kind: "merge_request",
    event_type: "merge_request",
    user_id: 1,
    project_id: projectId,
    object_attributes: {
      action: "open",
      id: 501,
      iid: 1,
      source_branch: "feature",
      target_branch: "main",
      state: "opened",
      url: `/root/mr-pipelines/-/merge_requests/1`,
    },
    labels: [],
    changes: {},
    assignee_ids: [],
    reviewer_ids: [],
    ci: {
      head_sha: headSha,
      diff_base_sha: "",
      title: "Feature work",
      description: "",
      labels: ["review", "backend"],
      assignee_usernames: [],
      milestone_title: null,
      draft: false,
    },
  };
}

const json = async <T>(p: string) => {
  const res = await s.api(p);
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

describe("merge request pipelines", () => {
  it("runs a merge_request_event pipeline whose job sees the merge request's variables", async () => {
    // The pushes above made no pipeline: the only job runs for merge requests alone.
    expect(await json<unknown[]>(`/projects/${projectId}/pipelines`)).toEqual([]);
    await s.bus.publish(Subjects.mergeRequest, opened());
    await expect
      .poll(async () => (await json<{ status: string }[]>(`/projects/${projectId}/merge_requests/1/pipelines`)).at(0)?.status, {
        timeout: 90_000,
        interval: 500,
      })
      .toMatch(/^(success|failed|canceled)$/);
    const [pipeline] = await json<{ id: number; iid: number; status: string; ref: string; sha: string; source: string }[]>(
      `/projects/${projectId}/merge_requests/1/pipelines`,
    );
    const [job] = await json<{ id: number; name: string; ref: string }[]>(`/projects/${projectId}/pipelines/${pipeline!.id}/jobs`);
    const trace = await (await s.api(`/projects/${projectId}/jobs/${job!.id}/trace`)).text();
    expect(pipeline, trace).toMatchObject({ status: "success", ref: "refs/merge-requests/1/head", sha: headSha, source: "merge_request_event" });
    expect(trace).toContain("iid=1 source=feature target=main");
    expect(trace).toContain("title=Feature work labels=backend,review ref=feature branch=[unset]");
    expect(trace).toContain("source=merge_request_event path=refs/merge-requests/1/head");
    expect(job).toMatchObject({ name: "mr-job", ref: "refs/merge-requests/1/head" });

    // The project's pipeline list shows it too, filtered by source; another merge request has none.
    const listed = await json<{ id: number; ref: string }[]>(`/projects/${projectId}/pipelines?source=merge_request_event`);
    expect(listed.map((p) => [p.id, p.ref])).toEqual([[pipeline!.id, "refs/merge-requests/1/head"]]);
    expect(await json<unknown[]>(`/projects/${projectId}/merge_requests/2/pipelines`)).toEqual([]);
  }, 120_000);

  it("answers the merge request pipelines list for unknown projects with 404", async () => {
    const res = await s.api(`/projects/999999/merge_requests/1/pipelines`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "404 Project Not Found" });
  });
});
