import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { jobsOf, pipelineFrom, runner, statuses, takeJob } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { retryJob } from "./retry-job.ts";
import { updateJob } from "./update-job.ts";

let t: TestContext;
let runnerToken: string;
beforeAll(async () => {
  t = await setUp("ci_retry_job", { repo: true });
  runnerToken = (await runner(t)).token;
}, 60_000);
afterAll(() => t.close());

const retry = (projectId: number, jobId: number) => retryJob(t.deps)({ projectId, jobId, userId: 42, jobVariables: [] });
const finish = async (state: "success" | "failed") => {
  const job = await takeJob(t, runnerToken);
  await updateJob(t.deps)({ jobId: job.id, token: job.token, state, failureReason: state === "failed" ? "script_failure" : "" });
  return job;
};

describe("RetryJob", () => {
  it("clones a failed job into a new pending one, marks the old one retried and resets the skipped stages", async () => {
    const { project, pipeline } = await pipelineFrom(t, "stages: [a, b]\nbuild:\n  stage: a\n  script: x\ntest:\n  stage: b\n  script: x\n");
    const failed = await finish("failed");
    expect(await statuses(t, pipeline.id)).toEqual({ build: "failed", test: "skipped" });

    const clone = await retry(project.id, failed.id);
    expect(clone).toMatchObject({ name: "build", status: "pending", retried: false, userId: 42, pipeline: { id: pipeline.id, status: "running" } });
    expect(Number(clone.id)).toBeGreaterThan(failed.id);
    const jobs = await jobsOf(t, pipeline.id);
    expect(jobs.map((j) => [j.name, j.status, j.retried, j.retryOfId])).toEqual([
      ["build", "failed", true, null],
      ["test", "created", false, null],
      ["build", "pending", false, failed.id],
    ]);
    // The clone runs like any job; the pipeline then goes on.
    expect((await finish("success")).id).toBe(Number(clone.id));
    expect(await statuses(t, pipeline.id)).toEqual({ build: "success", test: "pending" });
    await finish("success");
    expect((await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: pipeline.id } })).status).toBe("success");
  });

  it("enqueues a retried manual job at once instead of waiting for another play", async () => {
    const { project, pipeline } = await pipelineFrom(t, "deploy:\n  script: x\n  when: manual\n");
    const [deploy] = await jobsOf(t, pipeline.id);
    await t.deps.prisma.job.update({ where: { id: deploy!.id }, data: { status: "success" } });
    expect(await retry(project.id, deploy!.id)).toMatchObject({ name: "deploy", status: "pending", when: "manual" });
    await finish("success");
  });

  it("refuses jobs that are not finished or already retried with GitLab's 403", async () => {
    const { project, pipeline } = await pipelineFrom(t, "job:\n  script: x\n");
    const [job] = await jobsOf(t, pipeline.id);
    const refused = { status: 403, body: { message: "403 Forbidden - Job is not retryable" } };
    expect(await retry(project.id, job!.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual(refused);
    await finish("failed");
    await retry(project.id, job!.id);
    expect(await retry(project.id, job!.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual(refused);
    expect(await jobsOf(t, pipeline.id)).toHaveLength(2);
    await finish("success");
    expect(await retry(project.id + 1, job!.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 404, body: { message: "404 Not found" } });
  });

  it("retries a failed bridge: the new bridge starts a new child pipeline", async () => {
    const { project, pipeline } = await pipelineFrom(t, "child:\n  trigger:\n    include: child.yml\n    strategy: depend\n", {
      "child.yml": "c:\n  script: x\n",
    });
    await finish("failed");
    const [bridge] = await jobsOf(t, pipeline.id);
    expect(bridge).toMatchObject({ type: "bridge", status: "failed" });
    const clone = await retry(project.id, bridge!.id);
    expect(clone).toMatchObject({ type: "bridge", name: "child" });
    const children = await t.deps.prisma.pipeline.findMany({ where: { parentPipelineId: pipeline.id }, orderBy: { id: "asc" } });
    expect(children.map((c) => c.parentJobId)).toEqual([bridge!.id, Number(clone.id)]);
    await finish("success");
    expect(await statuses(t, pipeline.id)).toEqual({ child: "success" });
  });
});
