import { describe, expect, it } from "vitest";
import { jobMessage, pipelineMessage, rootProfile, urls } from "./ci-messages.test-helper.ts";
import { bridgeEntity, jobEntity } from "./job.ts";
import { pipelineBasic } from "./pipeline.ts";
import { userPublicProfile } from "./user.ts";

const users = new Map([[1, rootProfile]]);

describe("jobEntity", () => {
  it("shows every field of GitLab's Job", () => {
    expect(jobEntity(jobMessage(), users, urls)).toEqual({
      id: 88,
      status: "failed",
      stage: "test",
      name: "rspec",
      ref: "main",
      tag: false,
      coverage: null,
      allow_failure: false,
      created_at: "2026-01-01T10:00:00.000Z",
      started_at: "2026-01-01T10:00:02.000Z",
      finished_at: "2026-01-01T10:00:03.250Z",
      erased_at: null,
      duration: 1.25,
      queued_duration: 0.5,
      user: userPublicProfile(rootProfile, urls),
      commit: {
        id: "a".repeat(40),
        short_id: "aaaaaaaa",
        created_at: "2026-01-01T09:00:00.000Z",
        title: "Add CI",
        message: "Add CI\n\nWith a job.",
        author_name: "Ann",
        author_email: "ann@example.com",
      },
      pipeline: pipelineBasic(pipelineMessage({ status: "failed" }), urls),
      source: "push",
      failure_reason: "script_failure",
      web_url: "http://q.example/group/app/-/jobs/88",
      project: { ci_job_token_scope_enabled: false },
      artifacts_file: { filename: "artifacts.zip", size: 1000 },
      artifacts: [
        { file_type: "archive", size: 1000, filename: "artifacts.zip", file_format: "zip" },
        { file_type: "trace", size: 1500, filename: "job.log", file_format: "raw" },
      ],
      runner: {
        id: 5,
        description: "shared",
        ip_address: null,
        active: true,
        paused: false,
        is_shared: true,
        runner_type: "instance_type",
        name: null,
        online: false,
        status: "offline",
      },
      runner_manager: {
        id: 9,
        system_id: "s_0123456789ab",
        version: "17.0.0",
        revision: "abcdef12",
        platform: "linux",
        architecture: "amd64",
        created_at: "2026-01-01T09:00:00.000Z",
        contacted_at: "2026-01-01T10:00:03.000Z",
        ip_address: null,
        status: "online",
      },
      artifacts_expire_at: "2026-02-01T10:00:03.250Z",
      archived: false,
      tag_list: ["docker", "ubuntu"],
    });
  });

  it("leaves out failure_reason and artifacts_file unless failed or archived, and shows nulls for what a new job lacks", () => {
    const created = jobMessage({
      status: "created",
      startedAt: "",
      finishedAt: "",
      duration: undefined,
      queuedDuration: undefined,
      artifacts: [],
      artifactsExpireAt: "",
      runner: null,
      runnerManager: null,
      userId: 404,
      coverage: 12.5,
    });
    const shown = jobEntity(created, users, urls);
    expect(shown).not.toHaveProperty("failure_reason");
    expect(shown).not.toHaveProperty("artifacts_file");
    expect(shown).toMatchObject({
      started_at: null,
      finished_at: null,
      duration: null,
      queued_duration: null,
      artifacts: [],
      artifacts_expire_at: null,
      runner: null,
      runner_manager: null,
      user: null,
      coverage: 12.5,
    });
  });

  it.each(["push", "web", "api", "trigger", "parent_pipeline", "schedule", "merge_request_event"])("shows the job's source %s", (source) => {
    expect(jobEntity(jobMessage({ source }), users, urls).source).toBe(source);
  });
});

describe("bridgeEntity", () => {
  it("shows JobBasic with the downstream pipeline, without runner, artifacts or tags", () => {
    const child = pipelineMessage({ id: 42, source: "parent_pipeline", parentPipelineId: 41, status: "running" });
    const bridge = bridgeEntity(jobMessage({ type: "bridge", status: "success", name: "trigger", downstreamPipeline: child }), users, urls);
    expect(Object.keys(bridge)).toEqual([
      "id",
      "status",
      "stage",
      "name",
      "ref",
      "tag",
      "coverage",
      "allow_failure",
      "created_at",
      "started_at",
      "finished_at",
      "erased_at",
      "duration",
      "queued_duration",
      "user",
      "commit",
      "pipeline",
      "source",
      "web_url",
      "project",
      "downstream_pipeline",
    ]);
    expect(bridge.downstream_pipeline).toEqual(pipelineBasic(child, urls));
    // The bridge belongs to the parent pipeline: its source is the parent's, not the child's.
    expect(bridge.source).toBe("push");
    expect(bridgeEntity(jobMessage({ type: "bridge", downstreamPipeline: null }), users, urls)).toMatchObject({
      downstream_pipeline: null,
      failure_reason: "script_failure",
    });
  });
});
