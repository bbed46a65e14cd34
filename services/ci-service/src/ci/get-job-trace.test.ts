import type { JobTraceChunk } from "@quarry/proto/types/ci/v1/JobTraceChunk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { getJobTrace } from "./get-job-trace.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_get_job_trace")));
afterAll(() => t?.close());

const ctx = {} as never;
async function messages(jobId: number, projectId = 1): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  for await (const chunk of getJobTrace(t.deps).serverStream({ projectId, jobId, userId: 0, jobVariables: [] }, ctx) as AsyncIterable<JobTraceChunk>) {
    parts.push(Buffer.from(chunk.data as Uint8Array));
  }
  return parts;
}
const trace = async (jobId: number, projectId = 1) => Buffer.concat(await messages(jobId, projectId)).toString();

it("streams a running job's trace chunks in offset order, beyond one batch of rows", async () => {
  const job = await seedJob(t.deps.prisma, await seedPipeline(t.deps.prisma), { status: "running" });
  const lines = Array.from({ length: 150 }, (_, i) => `line ${i}\n`);
  let offset = 0;
  const rows = lines.map((line) => {
    const row = { jobId: job.id, offset, data: Buffer.from(line) };
    offset += line.length;
    return row;
  });
  await t.deps.prisma.jobTraceChunk.createMany({ data: rows.reverse() });
  expect(await trace(job.id)).toBe(lines.join(""));
});

it("streams the archived trace object once there is one", async () => {
  const job = await seedJob(t.deps.prisma, await seedPipeline(t.deps.prisma), { status: "success" });
  await t.deps.objectStore.put(`traces/${job.id}`, "archived log\n");
  await t.deps.prisma.jobArtifact.create({
    data: { jobId: job.id, projectId: 1, fileType: "trace", fileFormat: "raw", filename: "job.log", size: 13, objectKey: `traces/${job.id}` },
  });
  await t.deps.prisma.jobTraceChunk.create({ data: { jobId: job.id, offset: 0, data: Buffer.from("stale chunk") } });
  expect(await trace(job.id)).toBe("archived log\n");
});

it("sends only the empty first message for erased jobs and jobs without output, and 404 for other projects' jobs", async () => {
  const pipeline = await seedPipeline(t.deps.prisma);
  const erased = await seedJob(t.deps.prisma, pipeline, { status: "success", erasedAt: new Date() });
  await t.deps.prisma.jobTraceChunk.create({ data: { jobId: erased.id, offset: 0, data: Buffer.from("left over") } });
  const silent = await seedJob(t.deps.prisma, pipeline, { status: "created" });
  expect(await messages(erased.id)).toEqual([Buffer.alloc(0)]);
  expect(await messages(silent.id)).toEqual([Buffer.alloc(0)]);
  await expect(trace(silent.id, 2)).rejects.toMatchObject({ body: { message: "404 Not found" } });
});
