import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { jobsOf, pipelineFrom, runner, statuses, takeJob } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { playJob } from "./play-job.ts";
import { updateJob } from "./update-job.ts";

let t: TestContext;
let runnerToken: string;
beforeAll(async () => {
  t = await setUp("ci_play_job", { repo: true });
  runnerToken = (await runner(t)).token;
}, 60_000);
afterAll(() => t.close());

const play = (projectId: number, jobId: number, jobVariables: { key: string; value: string }[] = []) =>
  playJob(t.deps)({ projectId, jobId, userId: 42, jobVariables: jobVariables.map((v) => ({ ...v, variableType: "env_var" })) });
const succeed = async () => {
  const job = await takeJob(t, runnerToken);
  await updateJob(t.deps)({ jobId: job.id, token: job.token, state: "success", failureReason: "" });
  return job;
};

describe("PlayJob", () => {
  it("enqueues a manual job with the given variables, as the player; the jobs that need it follow", async () => {
    const yaml = `
variables: { TARGET: staging }
deploy:
  script: x
  when: manual
  allow_failure: false
smoke:
  script: x
  needs: [deploy]
`;
    const { project, pipeline } = await pipelineFrom(t, yaml);
    expect(await statuses(t, pipeline.id)).toEqual({ deploy: "manual", smoke: "created" });
    const [deploy] = await jobsOf(t, pipeline.id);

    const played = await play(project.id, deploy!.id, [
      { key: "TARGET", value: "production" },
      { key: "DRY_RUN", value: "0" },
    ]);
    expect(played).toMatchObject({ id: deploy!.id, status: "pending", userId: 42, playable: false });
    const taken = await takeJob(t, runnerToken);
    expect(taken.id).toBe(deploy!.id);
    const given = Object.fromEntries(taken.variables.map((v) => [v.key, v.value]));
    expect(given).toMatchObject({ TARGET: "production", DRY_RUN: "0" });
    await updateJob(t.deps)({ jobId: taken.id, token: taken.token, state: "success", failureReason: "" });
    expect(await statuses(t, pipeline.id)).toEqual({ deploy: "success", smoke: "pending" });
    await succeed();
  });

  it("plays a finished manual job again by retrying it, and answers the played job", async () => {
    const { project, pipeline } = await pipelineFrom(t, "deploy:\n  script: x\n  when: manual\n");
    const [deploy] = await jobsOf(t, pipeline.id);
    await play(project.id, deploy!.id);
    await succeed();
    expect(await play(project.id, deploy!.id, [{ key: "AGAIN", value: "yes" }])).toMatchObject({ id: deploy!.id, status: "success", retried: true });
    const [, clone] = await jobsOf(t, pipeline.id);
    expect(clone).toMatchObject({ name: "deploy", status: "pending", retryOfId: deploy!.id, userId: 42, variables: { AGAIN: "yes" } });
    await succeed();
  });

  it("starts the child pipeline of a played manual bridge", async () => {
    const { project, pipeline } = await pipelineFrom(t, "child:\n  when: manual\n  trigger:\n    include: child.yml\n", { "child.yml": "c:\n  script: x\n" });
    const [bridge] = await jobsOf(t, pipeline.id);
    expect(bridge).toMatchObject({ type: "bridge", status: "manual" });
    expect(await play(project.id, bridge!.id)).toMatchObject({ type: "bridge", status: "success", downstreamPipeline: { source: "parent_pipeline" } });
    const child = await t.deps.prisma.pipeline.findFirstOrThrow({ where: { parentJobId: bridge!.id } });
    expect(await statuses(t, child.id)).toEqual({ c: "pending" });
    await succeed();
  });

  it("refuses jobs that cannot be played with GitLab's 400", async () => {
    const { project, pipeline } = await pipelineFrom(t, "job:\n  script: x\n");
    const [job] = await jobsOf(t, pipeline.id);
    expect(await play(project.id, job!.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({
      status: 400,
      body: { message: "400 Bad request - Unplayable Job" },
    });
    expect(await play(project.id + 1, job!.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 404, body: { message: "404 Not found" } });
    await succeed();
  });
});
