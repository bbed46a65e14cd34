import type { DeploymentEvent, JobEvent, PipelineEvent } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pipelineFrom, runner, takeJob } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { updateJob } from "../ci/update-job.ts";
import { lockPipeline } from "../pipelines/lock.ts";
import { publishStatusChanges } from "./publish.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_publish_events", { repo: true });
}, 60_000);
afterAll(() => t.close());

const ofPipeline = (pipelineId: number) => ({
  pipelines: () =>
    t.published
      .filter((e) => e.subject === "quarry.ci.pipeline" && (e.data as PipelineEvent).object_attributes.id === pipelineId)
      .map((e) => e.data as PipelineEvent),
  jobs: () => t.published.filter((e) => e.subject === "quarry.ci.job" && (e.data as JobEvent).pipeline_id === pipelineId).map((e) => e.data as JobEvent),
  deployments: () => t.published.filter((e) => e.subject === "quarry.ci.deployment").map((e) => e.data as DeploymentEvent),
});

describe("pipeline, job and deployment events", () => {
  it("publishes each pipeline and job status once, in GitLab's payload shape", async () => {
    const { pipeline, sha } = await pipelineFrom(t, "build:\n  stage: build\n  script: make\ntest:\n  stage: test\n  script: rspec\n");
    const events = ofPipeline(pipeline.id);
    expect(events.pipelines().map((e) => e.object_attributes.status)).toEqual(["created", "pending"]);
    // New jobs are announced as created (GitLab's Ci::Build after_create hooks), then as they move.
    expect(events.jobs().map((e) => [e.build_name, e.build_status])).toEqual([
      ["build", "created"],
      ["test", "created"],
      ["build", "pending"],
    ]);
    const r = await runner(t);
    const job = await takeJob(t, r.token);
    await updateJob(t.deps)({ jobId: job.id, token: job.token, state: "success", failureReason: "" });
    expect(events.jobs().map((e) => [e.build_name, e.build_status])).toEqual([
      ["build", "created"],
      ["test", "created"],
      ["build", "pending"],
      ["build", "running"],
      ["build", "success"],
      ["test", "pending"],
    ]);
    expect(events.pipelines().map((e) => e.object_attributes.status)).toEqual(["created", "pending", "running"]);
    const last = events.pipelines().at(-1)!;
    expect(last).toMatchObject({
      object_kind: "pipeline",
      user_id: 5,
      project_id: pipeline.projectId,
      object_attributes: {
        id: pipeline.id,
        iid: pipeline.iid,
        ref: "main",
        tag: false,
        sha,
        source: "push",
        status: "running",
        detailed_status: "running",
        stages: ["build", "test"],
        protected_ref: false,
        variables: [],
        url: `/${pipeline.projectPath}/-/pipelines/${pipeline.id}`,
      },
      merge_request: null,
      commit: { id: sha, url: `/${pipeline.projectPath}/-/commit/${sha}`, author: { name: "Ada", email: "ada@example.com" } },
    });
    expect(last.object_attributes.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(last.builds.map((b) => [b.name, b.status, b.stage, b.user_id])).toEqual([
      ["build", "running", "build", 5],
      ["test", "created", "test", 5],
    ]);
    expect(last.builds[0]).toMatchObject({
      runner: { id: r.id, runner_type: "instance_type", is_shared: true, active: true },
      manual: false,
      environment: null,
    });
    const success = events.jobs().find((e) => e.build_status === "success")!;
    expect(success).toMatchObject({
      object_kind: "build",
      ref: "main",
      sha,
      build_id: job.id,
      build_stage: "build",
      pipeline_id: pipeline.id,
      project_id: pipeline.projectId,
      user_id: 5,
      retries_count: 0,
      commit: { id: pipeline.id, sha, status: "running", author_email: "ada@example.com" },
      environment: null,
    });
    expect(success.build_finished_at).toMatch(/ UTC$/);
  });

  it("creates environments and deployments that follow their jobs, and a stop job stops the environment", async () => {
    const yaml = `
deploy:
  script: deploy
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_COMMIT_REF_SLUG.example.com
stop:
  script: stop
  when: manual
  environment: { name: review/$CI_COMMIT_REF_SLUG, action: stop }
`;
    const { pipeline, sha } = await pipelineFrom(t, yaml);
    const env = await t.deps.prisma.environment.findFirstOrThrow({ where: { projectId: pipeline.projectId } });
    expect(env).toMatchObject({
      name: "review/main",
      slug: expect.stringMatching(/^review-main-[a-z0-9]{6}$/),
      externalUrl: "https://main.example.com",
      tier: "development",
      state: "available",
    });
    const [deployment, ...others] = await t.deps.prisma.deployment.findMany({ where: { pipelineId: pipeline.id } });
    expect(others).toEqual([]);
    expect(deployment).toMatchObject({ iid: 1, environmentId: env.id, ref: "main", sha, status: "created", userId: 5 });

    const r = await runner(t, { runnerType: "project_type", projectId: pipeline.projectId });
    const job = await takeJob(t, r.token);
    const vars = Object.fromEntries(job.variables.map((v) => [v.key, v.value]));
    expect(vars).toMatchObject({
      CI_ENVIRONMENT_NAME: "review/main",
      CI_ENVIRONMENT_SLUG: env.slug,
      CI_ENVIRONMENT_URL: "https://main.example.com",
      CI_ENVIRONMENT_ACTION: "start",
      CI_ENVIRONMENT_TIER: "development",
    });
    await updateJob(t.deps)({ jobId: job.id, token: job.token, state: "success", failureReason: "" });
    expect(await t.deps.prisma.deployment.findUniqueOrThrow({ where: { id: deployment!.id } })).toMatchObject({
      status: "success",
      finishedAt: expect.any(Date),
    });
    const hooks = ofPipeline(pipeline.id)
      .deployments()
      .filter((d) => d.deployment_id === deployment!.id);
    expect(hooks.map((d) => d.status)).toEqual(["running", "success"]);
    expect(hooks[1]).toMatchObject({
      object_kind: "deployment",
      deployable_id: job.id,
      deployable_url: `/${pipeline.projectPath}/-/jobs/${job.id}`,
      environment: "review/main",
      environment_slug: env.slug,
      environment_tier: "development",
      environment_external_url: "https://main.example.com",
      short_sha: sha.slice(0, 8),
      commit_url: `/${pipeline.projectPath}/-/commit/${sha}`,
      ref: "main",
      user_id: 5,
      project_id: pipeline.projectId,
    });
    const build = ofPipeline(pipeline.id)
      .pipelines()
      .at(-1)!
      .builds.find((b) => b.name === "deploy");
    expect(build).toMatchObject({ environment: { name: "review/main", action: "start", deployment_tier: "development" } });

    // The manual stop job: played, run, stopped.
    const { playJob } = await import("../ci/play-job.ts");
    const stop = await t.deps.prisma.job.findFirstOrThrow({ where: { pipelineId: pipeline.id, name: "stop" } });
    await playJob(t.deps)({ projectId: pipeline.projectId, jobId: stop.id, userId: 5, jobVariables: [] });
    const stopJob = await takeJob(t, r.token);
    expect(Object.fromEntries(stopJob.variables.map((v) => [v.key, v.value])).CI_ENVIRONMENT_ACTION).toBe("stop");
    await updateJob(t.deps)({ jobId: stopJob.id, token: stopJob.token, state: "success", failureReason: "" });
    expect((await t.deps.prisma.environment.findUniqueOrThrow({ where: { id: env.id } })).state).toBe("stopped");
  });
});

describe("claiming status changes to publish", () => {
  it("takes the pipeline's lock before its jobs', as processing and canceling do (the other order deadlocked a cancel)", async () => {
    const { pipeline } = await pipelineFrom(t, "build:\n  script: make\n");
    await t.deps.prisma.job.updateMany({ where: { pipelineId: pipeline.id }, data: { status: "canceled" } });
    let released = false;
    let publishedWhileLocked = false;
    let publishing: Promise<void> | undefined;
    await t.deps.prisma.$transaction(async (tx) => {
      await lockPipeline(tx, pipeline.id);
      publishing = publishStatusChanges(t.deps, pipeline.id).then(() => {
        publishedWhileLocked = !released;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      released = true;
    });
    await publishing;
    expect(publishedWhileLocked).toBe(false);
    expect(
      ofPipeline(pipeline.id)
        .jobs()
        .map((e) => e.build_status),
    ).toContain("canceled");
  });
});
