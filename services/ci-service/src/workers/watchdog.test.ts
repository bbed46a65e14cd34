import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobsOf, pipelineFrom, runner, statuses, takeJob } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { appendTrace } from "../ci/append-trace.ts";
import { PENDING_OUTDATED_SECONDS, stuckJobWatchdog, TIMEOUT_GRACE_SECONDS } from "./watchdog.ts";

let t: TestContext;
let runnerToken: string;
beforeAll(async () => {
  t = await setUp("ci_watchdog", { repo: true });
  runnerToken = (await runner(t)).token;
}, 60_000);
afterAll(() => t.close());

const take = (token = runnerToken) => takeJob(t, token);
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
const job = (id: number) => t.deps.prisma.job.findUniqueOrThrow({ where: { id } });
const read = async (key: string) => {
  const parts: Buffer[] = [];
  for await (const chunk of await t.deps.objectStore.get(key)) parts.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(parts).toString("utf8");
};

describe("stuck-job watchdog", () => {
  it("fails a running job whose runner went silent, archives its trace and moves the pipeline on", async () => {
    const silence = t.deps.settings.runnerSilenceTimeoutSeconds;
    const { pipeline } = await pipelineFrom(
      t,
      "stages: [a, b]\nsilent:\n  stage: a\n  script: x\nalive:\n  stage: a\n  script: x\ncleanup:\n  stage: b\n  script: x\n  when: on_failure\n",
    );
    const silent = await take();
    const alive = await take();
    await appendTrace(t.deps)({ jobId: silent.id, token: silent.token, offset: 0, data: Buffer.from("started\n") });
    await t.deps.prisma.job.update({ where: { id: silent.id }, data: { lastRunnerContactAt: ago(silence + 60) } });
    await t.deps.prisma.job.update({ where: { id: alive.id }, data: { lastRunnerContactAt: ago(silence - 60) } });

    expect(await stuckJobWatchdog(t.deps).runOnce()).toEqual({ silent: [silent.id], timedOut: [], outdated: [] });
    expect(await job(silent.id)).toMatchObject({ status: "failed", failureReason: "stuck_or_timeout_failure" });
    const trace = await t.deps.prisma.jobArtifact.findUniqueOrThrow({ where: { jobId_fileType: { jobId: silent.id, fileType: "trace" } } });
    expect(await read(trace.objectKey)).toBe("started\n");
    expect(await statuses(t, pipeline.id)).toEqual({ silent: "failed", alive: "running", cleanup: "created" });

    await t.deps.prisma.job.update({ where: { id: alive.id }, data: { lastRunnerContactAt: ago(silence + 1) } });
    expect((await stuckJobWatchdog(t.deps).runOnce()).silent).toEqual([alive.id]);
    expect(await statuses(t, pipeline.id)).toEqual({ silent: "failed", alive: "failed", cleanup: "pending" });
    const cleanup = await take();
    await t.deps.prisma.job.update({ where: { id: cleanup.id }, data: { status: "success" } });
  });

  it("cancels a canceling job whose runner never confirmed", async () => {
    const { pipeline } = await pipelineFrom(t, "job:\n  script: x\n");
    const taken = await take();
    await t.deps.prisma.job.update({
      where: { id: taken.id },
      data: { status: "canceling", lastRunnerContactAt: ago(t.deps.settings.runnerSilenceTimeoutSeconds + 1) },
    });
    expect((await stuckJobWatchdog(t.deps).runOnce()).silent).toEqual([taken.id]);
    expect(await job(taken.id)).toMatchObject({ status: "canceled", failureReason: null });
    expect(await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: pipeline.id } })).toMatchObject({ status: "canceled" });
  });

  it("fails running jobs past their timeout (the job's, or the runner's lower maximum) and its grace", async () => {
    await pipelineFrom(t, "own:\n  script: x\n  timeout: 10 minutes\n");
    const own = await take();
    const capped = await runner(t, { maximumTimeout: 600 });
    await pipelineFrom(t, "capped:\n  script: x\n");
    const byCapped = await take(capped.token);
    await pipelineFrom(t, "within:\n  script: x\n  timeout: 2 hours\n");
    const within = await take();
    const started = ago(600 + TIMEOUT_GRACE_SECONDS + 10);
    for (const id of [own.id, byCapped.id, within.id]) {
      await t.deps.prisma.job.update({ where: { id }, data: { startedAt: started, lastRunnerContactAt: new Date() } });
    }
    expect(await stuckJobWatchdog(t.deps).runOnce()).toEqual({ silent: [], timedOut: [own.id, byCapped.id], outdated: [] });
    for (const id of [own.id, byCapped.id]) expect(await job(id)).toMatchObject({ status: "failed", failureReason: "job_execution_timeout" });
    expect(await job(within.id)).toMatchObject({ status: "running" });
    await t.deps.prisma.job.update({ where: { id: within.id }, data: { status: "success" } });
  });

  it("fails jobs pending for a day without a runner, retrying them when `retry:` says so", async () => {
    const { pipeline } = await pipelineFrom(t, "old:\n  script: x\n  retry:\n    max: 1\n    when: stuck_or_timeout_failure\nyoung:\n  script: x\n");
    const [old, young] = await jobsOf(t, pipeline.id);
    await t.deps.prisma.job.update({ where: { id: old!.id }, data: { queuedAt: ago(PENDING_OUTDATED_SECONDS + 60) } });
    await t.deps.prisma.job.update({ where: { id: young!.id }, data: { queuedAt: ago(PENDING_OUTDATED_SECONDS - 60) } });

    expect(await stuckJobWatchdog(t.deps).runOnce()).toEqual({ silent: [], timedOut: [], outdated: [old!.id] });
    const jobs = await jobsOf(t, pipeline.id);
    expect(jobs.map((j) => [j.name, j.status, j.failureReason, j.retried])).toEqual([
      ["old", "failed", "stuck_or_timeout_failure", true],
      ["young", "pending", null, false],
      ["old", "pending", null, false],
    ]);
    // No trace to archive: no runner ever had the job.
    expect(await t.deps.prisma.jobArtifact.count({ where: { jobId: old!.id } })).toBe(0);
    await t.deps.prisma.job.updateMany({ where: { pipelineId: pipeline.id, status: "pending" }, data: { status: "success" } });
  });

  it("leaves a job alone while another transaction holds its row", async () => {
    await pipelineFrom(t, "job:\n  script: x\n");
    const taken = await take();
    await t.deps.prisma.job.update({ where: { id: taken.id }, data: { lastRunnerContactAt: ago(t.deps.settings.runnerSilenceTimeoutSeconds + 1) } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.deps.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM jobs WHERE id = ${taken.id} FOR UPDATE`;
        locked();
        await released;
      },
      { timeout: 30_000 },
    );
    await isLocked;
    expect((await stuckJobWatchdog(t.deps).runOnce()).silent).toEqual([]);
    release();
    await holder;
    expect((await stuckJobWatchdog(t.deps).runOnce()).silent).toEqual([taken.id]);
  });

  it("handles every job exactly once when two replicas run at the same time", async () => {
    const yaml = Array.from({ length: 6 }, (_, i) => `job${i}:\n  script: x\n`).join("");
    const { pipeline } = await pipelineFrom(t, yaml);
    const taken = [];
    for (let i = 0; i < 6; i++) taken.push(await take());
    await t.deps.prisma.job.updateMany({
      where: { pipelineId: pipeline.id },
      data: { lastRunnerContactAt: ago(t.deps.settings.runnerSilenceTimeoutSeconds + 1) },
    });
    const runs = await Promise.all([stuckJobWatchdog(t.deps).runOnce(), stuckJobWatchdog(t.deps).runOnce()]);
    const handled = runs.flatMap((r) => r.silent);
    expect(handled.toSorted((a, b) => a - b)).toEqual(taken.map((j) => j.id).toSorted((a, b) => a - b));
    expect(new Set(handled).size).toBe(handled.length);
    expect(await jobsOf(t, pipeline.id)).toHaveLength(6);
    expect(Object.values(await statuses(t, pipeline.id))).toEqual(Array(6).fill("failed"));
    expect(await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: pipeline.id } })).toMatchObject({ status: "failed" });
  });
});
