import { describe, expect, it } from "vitest";
import { pipelineMessage, root, urls } from "./ci-messages.test-helper.ts";
import { pipelineDetailedStatus, pipelineEntity, pipelineListItem } from "./pipeline.ts";

describe("pipeline entities", () => {
  it("lists PipelineBasic with the name, on the project's current path", () => {
    expect(pipelineListItem(pipelineMessage({ name: "nightly" }), urls)).toEqual({
      id: 41,
      iid: 7,
      project_id: 3,
      sha: "a".repeat(40),
      ref: "main",
      status: "success",
      source: "push",
      created_at: "2026-01-01T10:00:00.000Z",
      updated_at: "2026-01-01T10:05:00.000Z",
      web_url: "http://q.example/group/app/-/pipelines/41",
      name: "nightly",
    });
  });

  it("shows a single pipeline with its user, whole-second durations, coverage string and detailed status", () => {
    expect(pipelineEntity(pipelineMessage(), root, urls)).toEqual({
      id: 41,
      iid: 7,
      project_id: 3,
      sha: "a".repeat(40),
      ref: "main",
      status: "success",
      source: "push",
      created_at: "2026-01-01T10:00:00.000Z",
      updated_at: "2026-01-01T10:05:00.000Z",
      web_url: "http://q.example/group/app/-/pipelines/41",
      before_sha: "0".repeat(40),
      tag: false,
      yaml_errors: null,
      user: { id: 1, username: "root", name: "Administrator", state: "active", locked: false, avatar_url: null, web_url: "http://q.example/root" },
      started_at: "2026-01-01T10:00:06.400Z",
      finished_at: "2026-01-01T10:04:00.000Z",
      committed_at: "2026-01-01T09:00:00.000Z",
      duration: 234,
      queued_duration: 6,
      coverage: "85.25",
      detailed_status: {
        icon: "status_success",
        text: "Passed",
        label: "passed",
        group: "success",
        tooltip: "passed",
        has_details: true,
        details_path: "/group/app/-/pipelines/41",
        illustration: null,
        favicon: "/assets/ci_favicons/favicon_status_success.png",
      },
      archived: false,
      name: null,
    });
  });

  it("leaves out what a pipeline that has not run yet does not have", () => {
    const created = pipelineMessage({
      status: "created",
      startedAt: "",
      finishedAt: "",
      committedAt: "",
      duration: undefined,
      queuedDuration: undefined,
      coverage: undefined,
      yamlErrors: "bad",
    });
    expect(pipelineEntity(created, null, urls)).toMatchObject({
      user: null,
      started_at: null,
      finished_at: null,
      committed_at: null,
      duration: null,
      queued_duration: null,
      coverage: null,
      yaml_errors: "bad",
    });
    expect(pipelineEntity(pipelineMessage({ status: "running", finishedAt: "", queuedDuration: 0.4 }), null, urls)).toMatchObject({
      duration: null,
      queued_duration: null,
    });
  });

  it("builds GitLab's detailed status: extensions for warnings, delayed and blocked pipelines, illustrations where statuses have one", () => {
    expect(pipelineDetailedStatus(pipelineMessage({ warnings: true }), urls)).toMatchObject({
      icon: "status_warning",
      text: "Warning",
      label: "passed with warnings",
      group: "success-with-warnings",
      tooltip: "passed",
    });
    expect(pipelineDetailedStatus(pipelineMessage({ status: "manual" }), urls)).toMatchObject({
      icon: "status_manual",
      text: "Blocked",
      label: "waiting for manual action",
      group: "manual",
      tooltip: "manual action",
      favicon: "/assets/ci_favicons/favicon_status_manual.png",
    });
    expect(pipelineDetailedStatus(pipelineMessage({ status: "scheduled" }), urls)).toMatchObject({
      text: "Delayed",
      label: "waiting for delayed job",
      group: "scheduled",
    });
    expect(pipelineDetailedStatus(pipelineMessage({ status: "pending" }), urls)).toMatchObject({
      icon: "status_pending",
      text: "Pending",
      group: "pending",
      illustration: {
        image: "/assets/illustrations/pending_job_empty.svg",
        size: "svg-430",
        title: "This job has not started yet",
        content: "This job is in pending state and is waiting to be picked by a runner",
      },
    });
  });

  it("links pipelines of other projects under the path they were created in", () => {
    expect(pipelineListItem(pipelineMessage({ projectId: 9, projectPath: "other/lib" }), urls).web_url).toBe("http://q.example/other/lib/-/pipelines/41");
  });
});
