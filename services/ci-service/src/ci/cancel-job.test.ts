import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { jobsOf, pipelineFrom, runner, statuses, takeJob } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { appendTrace } from "./append-trace.ts";
import { cancelJob } from "./cancel-job.ts";
import { updateJob } from "./update-job.ts";

let t: TestContext;
let runnerToken: string;
beforeAll(async () => {
  t = await setUp("ci_cancel_job", { repo: true });
  runnerToken = (await runner(t)).token;
}, 60_000);
afterAll(() => t.close());

const cancel = (projectId: number, jobId: number) => cancelJob(t.deps)({ projectId, jobId, userId: 7, jobVariables: [] });
const pipelineStatus = async (id: number) => (await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id } })).status;

describe("CancelJob", () => {
  it("cancels a pending job at once; the stages after it are skipped", async () => {
    const { project, pipeline } = await pipelineFrom(t, "stages: [a, b]\none:\n  stage: a\n  script: x\ntwo:\n  stage: b\n  script: x\n");
    const [one] = await jobsOf(t, pipeline.id);
    expect(await cancel(project.id, one!.id)).toMatchObject({ id: one!.id, status: "canceled", finishedAt: expect.stringMatching(/Z$/) });
    expect(await statuses(t, pipeline.id)).toEqual({ one: "canceled", two: "skipped" });
    expect(await pipelineStatus(pipeline.id)).toBe("canceled");
  });

  it("lets the runner of a running job finish it: canceling, then canceled when the runner reports", async () => {
    const { project, pipeline } = await pipelineFrom(t, "job:\n  script: x\n");
    const job = await takeJob(t, runnerToken);
    expect(await cancel(project.id, job.id)).toMatchObject({ status: "canceling" });
    expect(await pipelineStatus(pipeline.id)).toBe("canceling");
    // The runner learns it from the answer to its next call, runs after_script, and reports.
    expect(await appendTrace(t.deps)({ jobId: job.id, token: job.token, offset: 0, data: Buffer.from("after_script\n") })).toMatchObject({
      status: "canceling",
    });
    expect(await updateJob(t.deps)({ jobId: job.id, token: job.token, state: "canceled", failureReason: "" })).toMatchObject({ status: "canceled" });
    expect(await pipelineStatus(pipeline.id)).toBe("canceled");
    expect(await t.deps.prisma.jobArtifact.count({ where: { jobId: job.id, fileType: "trace" } })).toBe(1);
  });

  it("cancels a manual job; answers a finished job as it is, as GitLab's API does", async () => {
    const { project, pipeline } = await pipelineFrom(t, "build:\n  script: x\ndeploy:\n  script: x\n  when: manual\n");
    const [build, deploy] = await jobsOf(t, pipeline.id);
    expect(await cancel(project.id, deploy!.id)).toMatchObject({ status: "canceled" });
    const taken = await takeJob(t, runnerToken);
    expect(taken.id).toBe(build!.id);
    await updateJob(t.deps)({ jobId: build!.id, token: taken.token, state: "success", failureReason: "" });
    expect(await cancel(project.id, build!.id)).toMatchObject({ status: "success", finishedAt: expect.any(String) });
    expect(await statuses(t, pipeline.id)).toEqual({ build: "success", deploy: "canceled" });
  });

  it("answers 404 for another project's job, bridges and unknown ids", async () => {
    const { project, pipeline } = await pipelineFrom(t, "job:\n  script: x\nchild:\n  trigger:\n    include: child.yml\n", {
      "child.yml": "c:\n  script: x\n",
    });
    const jobs = await jobsOf(t, pipeline.id);
    const bridge = jobs.find((j) => j.type === "bridge")!;
    const build = jobs.find((j) => j.type === "build")!;
    for (const [projectId, jobId] of [
      [project.id + 1, build.id],
      [project.id, bridge.id],
      [project.id, 2_000_000],
    ]) {
      expect(await cancel(projectId!, jobId!).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 404, body: { message: "404 Not found" } });
    }
    expect((await t.deps.prisma.job.findUniqueOrThrow({ where: { id: build.id } })).status).toBe("pending");
    await cancel(project.id, build.id);
  });
});
