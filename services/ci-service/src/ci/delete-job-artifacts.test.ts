import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { objectExists, storeArtifact } from "../../test/artifacts.ts";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { deleteJobArtifacts } from "./delete-job-artifacts.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_delete_job_artifacts");
});
afterAll(() => t?.close());

const remove = (projectId: number, jobId: number) => deleteJobArtifacts(t.deps)({ projectId, jobId, userId: 42, jobVariables: [] });

describe("DeleteJobArtifacts", () => {
  it("deletes the job's artifacts but its trace, rows and objects, and only that job's", async () => {
    const pipeline = await seedPipeline(t.deps.prisma);
    const job = await seedJob(t.deps.prisma, pipeline, { status: "success" });
    const other = await seedJob(t.deps.prisma, pipeline, { status: "success", name: "other" });
    const gone = [await storeArtifact(t, job, "archive", null), await storeArtifact(t, job, "metadata", null), await storeArtifact(t, job, "junit", null)];
    const trace = await storeArtifact(t, job, "trace", null);
    const untouched = await storeArtifact(t, other, "archive", null);

    expect(await remove(1, job.id)).toEqual({});
    expect((await t.deps.prisma.jobArtifact.findMany({ where: { jobId: job.id } })).map((a) => a.fileType)).toEqual(["trace"]);
    for (const artifact of gone) expect(await objectExists(t, artifact)).toBe(false);
    for (const artifact of [trace, untouched]) expect(await objectExists(t, artifact)).toBe(true);
    // Again, with nothing left: the same answer, as GitLab gives.
    expect(await remove(1, job.id)).toEqual({});
    expect(await objectExists(t, trace)).toBe(true);
  });

  it("answers 404 for another project's job", async () => {
    const pipeline = await seedPipeline(t.deps.prisma);
    const job = await seedJob(t.deps.prisma, pipeline, { status: "success" });
    const archive = await storeArtifact(t, job, "archive", null);
    expect(await remove(2, job.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect(await objectExists(t, archive)).toBe(true);
  });
});
