import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { jobsOf, pipelineFrom, runner, statuses, takeJob } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { cancelJob } from "./cancel-job.ts";
import { retryPipeline } from "./retry-pipeline.ts";
import { updateJob } from "./update-job.ts";

let t: TestContext;
let runnerToken: string;
beforeAll(async () => {
  t = await setUp("ci_retry_pipeline", { repo: true });
  runnerToken = (await runner(t)).token;
}, 60_000);
afterAll(() => t.close());

const retry = (projectId: number, pipelineId: number) => retryPipeline(t.deps)({ projectId, pipelineId, userId: 42 });
const pipelineStatus = async (id: number) => (await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id } })).status;
const finishNext = async (name: string, state: "success" | "failed") => {
  const job = await takeJob(t, runnerToken);
  expect(job.name).toBe(name);
  await updateJob(t.deps)({ jobId: job.id, token: job.token, state, failureReason: state === "failed" ? "script_failure" : "" });
};

describe("RetryPipeline", () => {
  it("retries failed and canceled jobs, resets skipped ones and leaves the successful ones", async () => {
    const yaml =
      "stages: [a, b]\nok:\n  stage: a\n  script: x\nbroken:\n  stage: a\n  script: x\nstopped:\n  stage: a\n  script: x\nnext:\n  stage: b\n  script: x\n";
    const { project, pipeline } = await pipelineFrom(t, yaml);
    await finishNext("ok", "success");
    await finishNext("broken", "failed");
    const [, , stopped] = await jobsOf(t, pipeline.id);
    await cancelJob(t.deps)({ projectId: project.id, jobId: stopped!.id, userId: 42, jobVariables: [] });
    expect(await statuses(t, pipeline.id)).toEqual({ ok: "success", broken: "failed", stopped: "canceled", next: "skipped" });

    expect(await retry(project.id, pipeline.id)).toMatchObject({ id: pipeline.id, status: "running" });
    const jobs = await jobsOf(t, pipeline.id);
    expect(jobs.map((j) => [j.name, j.status, j.retried])).toEqual([
      ["ok", "success", false],
      ["broken", "failed", true],
      ["stopped", "canceled", true],
      ["next", "created", false],
      ["broken", "pending", false],
      ["stopped", "pending", false],
    ]);
    expect(jobs.slice(4).map((j) => j.userId)).toEqual([42, 42]);
    await finishNext("broken", "success");
    await finishNext("stopped", "success");
    await finishNext("next", "success");
    expect(await pipelineStatus(pipeline.id)).toBe("success");
    // Nothing left to retry: the pipeline is answered as it is.
    expect(await retry(project.id, pipeline.id)).toMatchObject({ status: "success" });
    expect(await jobsOf(t, pipeline.id)).toHaveLength(6);
  });

  it("puts a child pipeline's depend bridge back to work until the retried child finishes", async () => {
    const yaml = "stages: [a, b]\nchild:\n  stage: a\n  trigger:\n    include: child.yml\n    strategy: depend\nafter:\n  stage: b\n  script: x\n";
    const { project, pipeline } = await pipelineFrom(t, yaml, { "child.yml": "c:\n  script: x\n" });
    const child = await t.deps.prisma.pipeline.findFirstOrThrow({ where: { parentPipelineId: pipeline.id } });
    await finishNext("c", "failed");
    expect(await statuses(t, pipeline.id)).toEqual({ child: "failed", after: "skipped" });
    expect(await pipelineStatus(pipeline.id)).toBe("failed");

    expect(await retry(project.id, child.id)).toMatchObject({ id: child.id, status: "running" });
    // The retried child runs again, so its bridge does, and the parent with it.
    expect(await statuses(t, pipeline.id)).toEqual({ child: "running", after: "created" });
    expect(await pipelineStatus(pipeline.id)).toBe("running");
    const c = await takeJob(t, runnerToken);
    await updateJob(t.deps)({ jobId: c.id, token: c.token, state: "success", failureReason: "" });
    expect(await statuses(t, pipeline.id)).toEqual({ child: "success", after: "pending" });
    await finishNext("after", "success");
    expect(await pipelineStatus(pipeline.id)).toBe("success");
  });

  it("resets the depend bridges all the way up from a retried grandchild", async () => {
    const files = {
      "child.yml": "grandchild:\n  trigger:\n    include: grandchild.yml\n    strategy: depend\n",
      "grandchild.yml": "g:\n  script: x\n",
    };
    const { project, pipeline } = await pipelineFrom(t, "child:\n  trigger:\n    include: child.yml\n    strategy: depend\n", files);
    await finishNext("g", "failed");
    const child = await t.deps.prisma.pipeline.findFirstOrThrow({ where: { parentPipelineId: pipeline.id } });
    const grandchild = await t.deps.prisma.pipeline.findFirstOrThrow({ where: { parentPipelineId: child.id } });
    expect([await pipelineStatus(pipeline.id), await pipelineStatus(child.id)]).toEqual(["failed", "failed"]);

    await retry(project.id, grandchild.id);
    expect(await statuses(t, child.id)).toEqual({ grandchild: "running" });
    expect(await statuses(t, pipeline.id)).toEqual({ child: "running" });
    await finishNext("g", "success");
    expect([await pipelineStatus(pipeline.id), await pipelineStatus(child.id), await pipelineStatus(grandchild.id)]).toEqual(["success", "success", "success"]);
  });

  it("answers 404 for another project's pipeline", async () => {
    const { project, pipeline } = await pipelineFrom(t, "job:\n  script: x\n");
    expect(await retry(project.id + 1, pipeline.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 404, body: { message: "404 Not found" } });
    await finishNext("job", "success");
  });
});
