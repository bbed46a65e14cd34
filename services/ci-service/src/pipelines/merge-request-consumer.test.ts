import { randomUUID } from "node:crypto";
import type { MergeRequestEvent } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestAs, runner } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { pipelineForMergeRequest, wantsPipeline } from "./merge-request-consumer.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_mr_pipelines", { repo: true });
}, 60_000);
afterAll(() => t.close());

const MR_RULES = `
test:
  script: echo "$CI_MERGE_REQUEST_IID"
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
`;

function mrEvent(
  projectId: number,
  headSha: string,
  overrides: Partial<MergeRequestEvent["object_attributes"]> = {},
  ci: Partial<MergeRequestEvent["ci"]> = {},
): MergeRequestEvent {
  return {
    event_id: randomUUID(),
    event_name: "merge_request",
    object_kind: "merge_request",
    event_type: "merge_request",
    user_id: 7,
    project_id: projectId,
    object_attributes: {
      action: "open",
      id: 900 + projectId,
      iid: 3,
      source_branch: "feature",
      target_branch: "main",
      source_project_id: projectId,
      target_project_id: projectId,
      state: "opened",
      merge_status: "can_be_merged",
      detailed_merge_status: "mergeable",
      url: `/group/project-${projectId}/-/merge_requests/3`,
      ...overrides,
    },
    labels: [],
    changes: {},
    assignee_ids: [],
    reviewer_ids: [],
    ci: {
      head_sha: headSha,
      diff_base_sha: "b".repeat(40),
      title: "Add feature",
      description: "Long story",
      labels: ["zeta", "alpha"],
      assignee_usernames: ["ada", "bob"],
      milestone_title: "v1",
      draft: false,
      ...ci,
    },
  };
}

describe("merge request pipelines", () => {
  it("wants a pipeline for open, reopen and pushes, not for other updates or closes", () => {
    const e = mrEvent(1, "a".repeat(40));
    expect(wantsPipeline(e)).toBe(true);
    expect(wantsPipeline({ ...e, object_attributes: { ...e.object_attributes, action: "reopen" } })).toBe(true);
    expect(wantsPipeline({ ...e, object_attributes: { ...e.object_attributes, action: "update", oldrev: "c".repeat(40) } })).toBe(true);
    expect(wantsPipeline({ ...e, object_attributes: { ...e.object_attributes, action: "update" } })).toBe(false);
    expect(wantsPipeline({ ...e, object_attributes: { ...e.object_attributes, action: "close" } })).toBe(false);
  });

  it("creates a merge_request_event pipeline on refs/merge-requests/<iid>/head, once per event", async () => {
    const { sha: base } = await t.addProject(20, { ".gitlab-ci.yml": MR_RULES });
    const head = t.commit(20, { "feature.txt": "x" }, "feature");
    expect(head).not.toBe(base);
    const event = mrEvent(20, head);
    const first = await pipelineForMergeRequest(t.deps, event);
    const again = await pipelineForMergeRequest(t.deps, event);
    expect(again!.id).toBe(first!.id);
    const rows = await t.deps.prisma.pipeline.findMany({ where: { projectId: 20 }, include: { jobs: true } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      source: "merge_request_event",
      ref: "refs/merge-requests/3/head",
      sha: head,
      mergeRequestIid: 3,
      userId: 7,
      status: "pending",
    });
    expect(rows[0]!.jobs.map((j) => j.name)).toEqual(["test"]);
  });

  it("creates nothing when no job takes merge_request_event (plain jobs run for branches only)", async () => {
    const { sha } = await t.addProject(21, { ".gitlab-ci.yml": "build:\n  script: echo hi\n" });
    expect(await pipelineForMergeRequest(t.deps, mrEvent(21, sha))).toBeNull();
    expect(await t.deps.prisma.pipeline.count({ where: { projectId: 21 } })).toBe(0);
  });

  it("hands jobs the CI_MERGE_REQUEST_* variables, the source branch as CI_COMMIT_REF_NAME and no CI_COMMIT_BRANCH", async () => {
    await t.addProject(22, { ".gitlab-ci.yml": MR_RULES });
    const head = t.commit(22, { "feature.txt": "y" }, "feature");
    t.mergeRequestRef(22, 3, head);
    const description = "d".repeat(2800);
    await pipelineForMergeRequest(t.deps, mrEvent(22, head, {}, { description }));
    const r = await runner(t, { runnerType: "project_type", projectId: 22 });
    const job = await requestAs(t, r.token);
    const vars = Object.fromEntries(job!.variables.map((v) => [v.key, v.value]));
    expect(job).toMatchObject({ ref: "refs/merge-requests/3/head", sha: head, refspecs: ["+refs/merge-requests/3/head:refs/merge-requests/3/head"] });
    expect(vars).toMatchObject({
      CI_PIPELINE_SOURCE: "merge_request_event",
      CI_COMMIT_REF_NAME: "feature",
      CI_COMMIT_REF_SLUG: "feature",
      CI_MERGE_REQUEST_ID: "922",
      CI_MERGE_REQUEST_IID: "3",
      CI_MERGE_REQUEST_REF_PATH: "refs/merge-requests/3/head",
      CI_MERGE_REQUEST_PROJECT_ID: "22",
      CI_MERGE_REQUEST_PROJECT_PATH: "group/project-22",
      CI_MERGE_REQUEST_PROJECT_URL: "http://quarry.test:8080/group/project-22",
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: "feature",
      CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: "",
      CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "22",
      CI_MERGE_REQUEST_SOURCE_PROJECT_URL: "http://quarry.test:8080/group/project-22",
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main",
      CI_MERGE_REQUEST_TARGET_BRANCH_SHA: "",
      CI_MERGE_REQUEST_TITLE: "Add feature",
      CI_MERGE_REQUEST_DESCRIPTION: "d".repeat(2700),
      CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED: "true",
      CI_MERGE_REQUEST_ASSIGNEES: "ada,bob",
      CI_MERGE_REQUEST_LABELS: "alpha,zeta",
      CI_MERGE_REQUEST_MILESTONE: "v1",
      CI_MERGE_REQUEST_DIFF_BASE_SHA: "b".repeat(40),
      CI_MERGE_REQUEST_DRAFT: "false",
      CI_MERGE_REQUEST_EVENT_TYPE: "detached",
    });
    expect(vars.CI_COMMIT_BRANCH).toBeUndefined();
  });

  it("lets rules read the merge request's variables", async () => {
    const yaml = `
to-main:
  script: echo main
  rules:
    - if: $CI_MERGE_REQUEST_TARGET_BRANCH_NAME == "main"
to-other:
  script: echo other
  rules:
    - if: $CI_MERGE_REQUEST_TARGET_BRANCH_NAME == "other"
`;
    const { sha } = await t.addProject(23, { ".gitlab-ci.yml": yaml });
    const pipeline = await pipelineForMergeRequest(t.deps, mrEvent(23, sha));
    const jobs = await t.deps.prisma.job.findMany({ where: { pipelineId: pipeline!.id } });
    expect(jobs.map((j) => j.name)).toEqual(["to-main"]);
  });

  it("takes merge request pipelines from workflow rules and from only: [merge_requests]", async () => {
    const workflow = `
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_COMMIT_BRANCH
plain:
  script: echo plain
legacy:
  script: echo legacy
  only: [merge_requests]
branch-only:
  script: echo branch
  only: [branches]
`;
    const { sha } = await t.addProject(24, { ".gitlab-ci.yml": workflow });
    const pipeline = await pipelineForMergeRequest(t.deps, mrEvent(24, sha));
    const jobs = await t.deps.prisma.job.findMany({ where: { pipelineId: pipeline!.id }, orderBy: { id: "asc" } });
    expect(jobs.map((j) => j.name)).toEqual(["plain", "legacy"]);
  });
});
