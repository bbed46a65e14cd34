import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { pipelineFrom, runner, statuses, takeJob } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { cancelPipeline } from "./cancel-pipeline.ts";
import { updateJob } from "./update-job.ts";

let t: TestContext;
let runnerToken: string;
beforeAll(async () => {
  t = await setUp("ci_cancel_pipeline", { repo: true });
  runnerToken = (await runner(t)).token;
}, 60_000);
afterAll(() => t.close());

const cancel = (projectId: number, pipelineId: number) => cancelPipeline(t.deps)({ projectId, pipelineId, userId: 42 });
const pipelineStatus = async (id: number) => (await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id } })).status;

describe("CancelPipeline", () => {
  it("cancels waiting jobs at once and running ones through their runners; manual jobs stay playable", async () => {
    const yaml = `
stages: [a, b]
running:
  stage: a
  script: x
waiting:
  stage: a
  script: x
manual:
  stage: a
  script: x
  when: manual
later:
  stage: b
  script: x
`;
    const { project, pipeline } = await pipelineFrom(t, yaml);
    const running = await takeJob(t, runnerToken);
    expect(running.name).toBe("running");

    expect(await cancel(project.id, pipeline.id)).toMatchObject({ id: pipeline.id, status: "canceling" });
    expect(await statuses(t, pipeline.id)).toEqual({ running: "canceling", waiting: "canceled", manual: "manual", later: "canceled" });
    await updateJob(t.deps)({ jobId: running.id, token: running.token, state: "canceled", failureReason: "" });
    expect(await statuses(t, pipeline.id)).toMatchObject({ running: "canceled" });
    expect(await pipelineStatus(pipeline.id)).toBe("canceled");
  });

  it("cancels the child pipelines too", async () => {
    const yaml =
      "stages: [a, b]\nparent:\n  stage: a\n  script: x\nchild:\n  stage: a\n  trigger:\n    include: child.yml\n    strategy: depend\nafter:\n  stage: b\n  script: x\n";
    const { project, pipeline } = await pipelineFrom(t, yaml, { "child.yml": "stages: [c, d]\nc:\n  stage: c\n  script: x\nd:\n  stage: d\n  script: x\n" });
    const child = await t.deps.prisma.pipeline.findFirstOrThrow({ where: { parentPipelineId: pipeline.id } });
    expect(await statuses(t, child.id)).toEqual({ c: "pending", d: "created" });

    expect(await cancel(project.id, pipeline.id)).toMatchObject({ status: "canceled" });
    expect(await statuses(t, pipeline.id)).toEqual({ parent: "canceled", child: "canceled", after: "canceled" });
    expect(await statuses(t, child.id)).toEqual({ c: "canceled", d: "canceled" });
    expect(await pipelineStatus(child.id)).toBe("canceled");
    // A child pipeline is the project's pipeline too, and can be canceled alone.
    expect(await cancel(project.id, child.id)).toMatchObject({ id: child.id, status: "canceled" });
  });

  it("answers a finished pipeline as it is, and 404 for another project's", async () => {
    const { project, pipeline } = await pipelineFrom(t, "job:\n  script: x\n");
    const job = await takeJob(t, runnerToken);
    await updateJob(t.deps)({ jobId: job.id, token: job.token, state: "success", failureReason: "" });
    expect(await cancel(project.id, pipeline.id)).toMatchObject({ status: "success" });
    expect(await statuses(t, pipeline.id)).toEqual({ job: "success" });
    expect(await cancel(project.id + 1, pipeline.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 404, body: { message: "404 Not found" } });
  });
});
