import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { pipelineFrom, requestAs, runner, statuses } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { appendTrace } from "./append-trace.ts";
import { updateJob } from "./update-job.ts";

let t: TestContext;
let runnerToken: string;
beforeAll(async () => {
  t = await setUp("ci_update_job", { repo: true });
  runnerToken = (await runner(t)).token;
}, 60_000);
afterAll(() => t.close());

const update = (jobId: number, token: string, state: string, extra: { failureReason?: string; exitCode?: number } = {}) =>
  updateJob(t.deps)({ jobId, token, state, failureReason: extra.failureReason ?? "", exitCode: extra.exitCode });
const take = async () => {
  const job = await requestAs(t, runnerToken);
  if (!job) throw new Error("no job");
  return { id: Number(job.id), token: job.token, name: job.name };
};

describe("UpdateJob", () => {
  it("keeps a job alive, then finishes it and moves the pipeline on", async () => {
    const { pipeline } = await pipelineFrom(t, "stages: [a, b]\none:\n  stage: a\n  script: x\ntwo:\n  stage: b\n  script: x\n");
    const job = await take();
    expect(await update(job.id, job.token, "running")).toMatchObject({ status: "running" });
    await appendTrace(t.deps)({ jobId: job.id, token: job.token, offset: 0, data: Buffer.from("hello\n") });
    expect(await update(job.id, job.token, "success")).toMatchObject({ status: "success" });
    expect(await statuses(t, pipeline.id)).toEqual({ one: "success", two: "pending" });
    // The runner retrying its final update gets the same answer.
    expect(await update(job.id, job.token, "success")).toMatchObject({ status: "success" });
    // ...but the token no longer keeps anything alive.
    expect(await update(job.id, job.token, "running").catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - Job is not running" },
    });
    const two = await take();
    await update(two.id, two.token, "success");
    expect(await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: pipeline.id } })).toMatchObject({ status: "success" });
  });

  it("refuses another job's token and unknown tokens", async () => {
    await pipelineFrom(t, "a:\n  script: x\nb:\n  script: x\n");
    const a = await take();
    const b = await take();
    for (const token of [b.token, "glcbt-forged", ""]) {
      expect(await update(a.id, token, "success").catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    }
    await update(a.id, a.token, "success");
    await update(b.id, b.token, "success");
  });

  it("records failures: later stages are skipped, allowed failures and when: on_failure/always run", async () => {
    const yaml = `
stages: [build, test, cleanup]
flaky:
  stage: build
  script: x
  allow_failure: { exit_codes: [3] }
broken:
  stage: build
  script: x
test:
  stage: test
  script: x
on-failure:
  stage: cleanup
  script: x
  when: on_failure
always:
  stage: cleanup
  script: x
  when: always
`;
    const { pipeline } = await pipelineFrom(t, yaml);
    const first = await take();
    const second = await take();
    const flaky = first.name === "flaky" ? first : second;
    const broken = first.name === "flaky" ? second : first;
    await update(flaky.id, flaky.token, "failed", { failureReason: "script_failure", exitCode: 3 });
    expect(await t.deps.prisma.job.findUniqueOrThrow({ where: { id: flaky.id } })).toMatchObject({
      status: "failed",
      allowFailure: true,
      exitCode: 3,
      failureReason: "script_failure",
    });
    await update(broken.id, broken.token, "failed", { failureReason: "script_failure", exitCode: 1 });
    expect(await statuses(t, pipeline.id)).toEqual({ flaky: "failed", broken: "failed", test: "skipped", "on-failure": "pending", always: "pending" });
    for (let i = 0; i < 2; i++) {
      const j = await take();
      await update(j.id, j.token, "success");
    }
    expect(await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: pipeline.id } })).toMatchObject({ status: "failed" });
  });

  it("retries automatically as `retry:` says, and not for other failure reasons", async () => {
    const { pipeline } = await pipelineFrom(t, "job:\n  script: x\n  retry:\n    max: 1\n    when: runner_system_failure\n");
    const first = await take();
    await update(first.id, first.token, "failed", { failureReason: "runner_system_failure" });
    const jobs = await t.deps.prisma.job.findMany({ where: { pipelineId: pipeline.id }, orderBy: { id: "asc" } });
    expect(jobs.map((j) => [j.status, j.retried, j.retryCount])).toEqual([
      ["failed", true, 0],
      ["pending", false, 1],
    ]);
    const second = await take();
    expect(second.id).toBe(jobs[1]!.id);
    await update(second.id, second.token, "failed", { failureReason: "runner_system_failure" });
    expect(await t.deps.prisma.job.count({ where: { pipelineId: pipeline.id } })).toBe(2);
    expect(await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: pipeline.id } })).toMatchObject({ status: "failed" });
  });
});
