import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { deletePipeline } from "./delete-pipeline.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_delete_pipeline")));
afterAll(() => t?.close());

async function storeArtifact(jobId: number, fileType: string) {
  const objectKey = `jobs/${jobId}/${fileType}`;
  await t.deps.objectStore.put(objectKey, `${fileType} of ${jobId}`);
  await t.deps.prisma.jobArtifact.create({
    data: { jobId, projectId: 1, fileType, fileFormat: fileType === "archive" ? "zip" : "raw", filename: fileType, size: 10, objectKey },
  });
  return objectKey;
}

it("deletes the pipeline, its child pipelines, their jobs, artifacts with their objects and trace chunks", async () => {
  const { prisma, objectStore } = t.deps;
  const parent = await seedPipeline(prisma);
  const child = await seedPipeline(prisma, { source: "parent_pipeline", parentPipelineId: parent.id });
  const grandchild = await seedPipeline(prisma, { source: "parent_pipeline", parentPipelineId: child.id });
  const kept = await seedPipeline(prisma);
  const parentJob = await seedJob(prisma, parent);
  const grandchildJob = await seedJob(prisma, grandchild);
  const keptJob = await seedJob(prisma, kept);
  const deletedKeys = [await storeArtifact(parentJob.id, "archive"), await storeArtifact(grandchildJob.id, "trace")];
  const keptKey = await storeArtifact(keptJob.id, "archive");
  for (const job of [parentJob, keptJob]) await prisma.jobTraceChunk.create({ data: { jobId: job.id, offset: 0, data: Buffer.from("log") } });

  expect(await deletePipeline(t.deps)({ projectId: 1, pipelineId: parent.id, userId: 1 })).toEqual({});

  expect((await prisma.pipeline.findMany({ select: { id: true } })).map((p) => p.id)).toEqual([kept.id]);
  expect((await prisma.job.findMany({ select: { id: true } })).map((j) => j.id)).toEqual([keptJob.id]);
  expect((await prisma.jobArtifact.findMany({ select: { objectKey: true } })).map((a) => a.objectKey)).toEqual([keptKey]);
  expect((await prisma.jobTraceChunk.findMany({ select: { jobId: true } })).map((c) => c.jobId)).toEqual([keptJob.id]);
  for (const key of deletedKeys) expect(await objectStore.stat(key)).toBeNull();
  expect(await objectStore.stat(keptKey)).not.toBeNull();
});

it("answers 404 for another project's pipeline and deletes nothing", async () => {
  const other = await seedPipeline(t.deps.prisma, { projectId: 9 });
  await expect(deletePipeline(t.deps)({ projectId: 1, pipelineId: other.id, userId: 1 })).rejects.toMatchObject({ body: { message: "404 Not found" } });
  expect(await t.deps.prisma.pipeline.findUnique({ where: { id: other.id } })).not.toBeNull();
});
