import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { pipelineFrom, requestAs, runner } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { appendTrace } from "./append-trace.ts";
import { updateJob } from "./update-job.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_append_trace", { repo: true });
}, 60_000);
afterAll(() => t.close());

const read = async (stream: NodeJS.ReadableStream) => {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(parts).toString("utf8");
};

describe("AppendTrace", () => {
  it("appends at the end only, then moves the trace to object storage with its coverage", async () => {
    await pipelineFrom(t, "job:\n  script: x\n  coverage: '/Coverage: \\d+\\.\\d+%/'\n");
    const { token: runnerToken } = await runner(t);
    const job = (await requestAs(t, runnerToken))!;
    const id = Number(job.id);
    const append = (offset: number, text: string) => appendTrace(t.deps)({ jobId: id, token: job.token, offset, data: Buffer.from(text) });
    expect(await append(0, "Coverage: 12.5%\n")).toMatchObject({ traceLength: 16, rangeMismatch: false, status: "running" });
    // A gap and an overlap are both refused with the stored length, storing nothing.
    expect(await append(20, "lost")).toMatchObject({ traceLength: 16, rangeMismatch: true });
    expect(await append(4, "again")).toMatchObject({ traceLength: 16, rangeMismatch: true });
    expect(await append(16, "Coverage: 80.25%\ndone\n")).toMatchObject({ traceLength: 38, rangeMismatch: false });
    expect(
      await appendTrace(t.deps)({ jobId: id, token: "glcbt-other", offset: 38, data: Buffer.from("x") }).catch((e: unknown) => httpErrorFromGrpc(e)),
    ).toMatchObject({ status: 403 });

    await updateJob(t.deps)({ jobId: id, token: job.token, state: "success", failureReason: "" });
    const row = await t.deps.prisma.job.findUniqueOrThrow({ where: { id }, include: { artifacts: true } });
    expect(row.coverage).toBe(80.25);
    expect(row.artifacts).toHaveLength(1);
    expect(row.artifacts[0]).toMatchObject({ fileType: "trace", fileFormat: "raw", filename: "job.log", size: 38n });
    expect(await read(await t.deps.objectStore.get(row.artifacts[0]!.objectKey))).toBe("Coverage: 12.5%\nCoverage: 80.25%\ndone\n");
    expect(await t.deps.prisma.jobTraceChunk.count({ where: { jobId: id } })).toBe(0);
    // A finished job takes no more trace.
    expect(await append(38, "late").catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - Job is not running" },
    });
  });
});
