import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { objectExists, storeArtifact } from "../../test/artifacts.ts";
import { jobsOf, pipelineFrom, runner, takeJob } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { appendTrace } from "./append-trace.ts";
import { eraseJob } from "./erase-job.ts";
import { updateJob } from "./update-job.ts";

let t: TestContext;
let runnerToken: string;
beforeAll(async () => {
  t = await setUp("ci_erase_job", { repo: true });
  runnerToken = (await runner(t)).token;
}, 60_000);
afterAll(() => t.close());

const erase = (projectId: number, jobId: number) => eraseJob(t.deps)({ projectId, jobId, userId: 42, jobVariables: [] });
const notErasable = { status: 403, body: { message: "403 Forbidden - Job is not erasable!" } };

describe("EraseJob", () => {
  it("removes a finished job's trace and artifacts, rows and objects, and records when", async () => {
    const { project } = await pipelineFrom(t, "job:\n  script: x\n");
    const job = await takeJob(t, runnerToken);
    await appendTrace(t.deps)({ jobId: job.id, token: job.token, offset: 0, data: Buffer.from("secret output\n") });
    const row = await t.deps.prisma.job.findUniqueOrThrow({ where: { id: job.id } });
    const stored = [await storeArtifact(t, row, "archive", null), await storeArtifact(t, row, "metadata", null)];
    expect(await erase(project.id, job.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual(notErasable);
    await updateJob(t.deps)({ jobId: job.id, token: job.token, state: "failed", failureReason: "script_failure" });
    const trace = await t.deps.prisma.jobArtifact.findUniqueOrThrow({ where: { jobId_fileType: { jobId: job.id, fileType: "trace" } } });

    const erased = await erase(project.id, job.id);
    expect(erased).toMatchObject({ id: job.id, status: "failed", artifacts: [], artifactsExpireAt: "", erasedAt: expect.stringMatching(/Z$/) });
    expect(await t.deps.prisma.jobArtifact.count({ where: { jobId: job.id } })).toBe(0);
    for (const artifact of [...stored, trace]) expect(await objectExists(t, artifact)).toBe(false);
    expect(await t.deps.prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ traceLength: 0, erasedAt: expect.any(Date) });
    // Nothing is left to erase.
    expect(await erase(project.id, job.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual(notErasable);
  });

  it("refuses unfinished jobs and finished ones with nothing to erase, and other projects' jobs", async () => {
    const { project, pipeline } = await pipelineFrom(t, "stages: [a, b]\none:\n  stage: a\n  script: x\ntwo:\n  stage: b\n  script: x\n");
    const [one, two] = await jobsOf(t, pipeline.id);
    expect(await erase(project.id, one!.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual(notErasable);
    const taken = await takeJob(t, runnerToken);
    await updateJob(t.deps)({ jobId: taken.id, token: taken.token, state: "failed", failureReason: "script_failure" });
    // Skipped without ever running: no trace, no artifacts.
    expect((await t.deps.prisma.job.findUniqueOrThrow({ where: { id: two!.id } })).status).toBe("skipped");
    expect(await erase(project.id, two!.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual(notErasable);
    expect(await erase(project.id + 1, one!.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 404, body: { message: "404 Not found" } });
  });
});
