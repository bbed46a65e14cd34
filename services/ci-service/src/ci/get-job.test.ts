import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { getJob } from "./get-job.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_get_job")));
afterAll(() => t?.close());

it("answers a build of the project with its pipeline, artifacts and runner manager", async () => {
  const { prisma } = t.deps;
  const pipeline = await seedPipeline(prisma, { commitTitle: "Add CI", commitAuthorName: "Ann" });
  const runner = await prisma.runner.create({ data: { tokenDigest: "d1", runnerType: "project_type", projectId: 1 } });
  const manager = await prisma.runnerManager.create({ data: { runnerId: runner.id, systemId: "s_0123", version: "17.0.0", platform: "linux" } });
  const job = await seedJob(prisma, pipeline, {
    status: "failed",
    failureReason: "script_failure",
    runnerId: runner.id,
    runnerManagerId: manager.id,
    tagList: ["docker"],
    queuedAt: new Date("2024-01-01T00:00:00Z"),
    startedAt: new Date("2024-01-01T00:00:02Z"),
    finishedAt: new Date("2024-01-01T00:00:05.5Z"),
  });
  await prisma.jobArtifact.create({
    data: { jobId: job.id, projectId: 1, fileType: "archive", fileFormat: "zip", filename: "artifacts.zip", size: 1000, objectKey: "k" },
  });
  expect(await getJob(t.deps)({ projectId: 1, jobId: job.id, userId: 0, jobVariables: [] })).toMatchObject({
    id: job.id,
    status: "failed",
    failureReason: "script_failure",
    duration: 3.5,
    queuedDuration: 2,
    tagList: ["docker"],
    commitTitle: "Add CI",
    commitAuthorName: "Ann",
    pipeline: { id: pipeline.id, ref: "main" },
    artifacts: [{ fileType: "archive", size: 1000, filename: "artifacts.zip", fileFormat: "zip" }],
    runner: { id: runner.id, runnerType: "project_type", isShared: false },
    runnerManager: { id: manager.id, systemId: "s_0123", version: "17.0.0", platform: "linux" },
  });
});

it("gives the job its pipeline's source (GitLab's Ci::Build#source)", async () => {
  for (const source of ["api", "parent_pipeline"]) {
    const job = await seedJob(t.deps.prisma, await seedPipeline(t.deps.prisma, { source }));
    expect(await getJob(t.deps)({ projectId: 1, jobId: job.id, userId: 0, jobVariables: [] })).toMatchObject({ source, pipeline: { source } });
  }
});

it("answers GitLab's 404 for bridges, other projects' jobs and unknown ids", async () => {
  const pipeline = await seedPipeline(t.deps.prisma);
  const bridge = await seedJob(t.deps.prisma, pipeline, { type: "bridge" });
  const build = await seedJob(t.deps.prisma, pipeline);
  const get = getJob(t.deps);
  for (const [projectId, jobId] of [
    [1, bridge.id],
    [2, build.id],
    [1, 999_999],
    [1, -1],
  ] as const) {
    await expect(get({ projectId, jobId, userId: 0, jobVariables: [] })).rejects.toMatchObject({ code: 5, body: { message: "404 Not found" } });
  }
});
