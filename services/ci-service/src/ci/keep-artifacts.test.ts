import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { storeArtifact } from "../../test/artifacts.ts";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { artifactCleanup } from "../workers/artifact-cleanup.ts";
import { keepArtifacts } from "./keep-artifacts.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_keep_artifacts");
});
afterAll(() => t?.close());

const keep = (projectId: number, jobId: number) => keepArtifacts(t.deps)({ projectId, jobId, userId: 42, jobVariables: [] });
const soon = () => new Date(Date.now() + 60_000);
const notFound = { status: 404, body: { message: "404 Not Found" } };

describe("KeepArtifacts", () => {
  it("stops the job's artifacts from expiring, so the cleanup leaves them", async () => {
    const pipeline = await seedPipeline(t.deps.prisma);
    const job = await seedJob(t.deps.prisma, pipeline, { status: "success" });
    await storeArtifact(t, job, "archive", soon());
    await storeArtifact(t, job, "metadata", soon());
    await storeArtifact(t, job, "trace", null);
    expect(await keep(1, job.id)).toMatchObject({ id: job.id, artifactsExpireAt: "" });
    const rows = await t.deps.prisma.jobArtifact.findMany({ where: { jobId: job.id }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.fileType, r.expireAt])).toEqual([
      ["archive", null],
      ["metadata", null],
      ["trace", null],
    ]);
    expect(await artifactCleanup(t.deps).runOnce()).toEqual([]);
  });

  it("answers 404 for a job without an archive, with an expired one, or of another project", async () => {
    const pipeline = await seedPipeline(t.deps.prisma);
    const traceOnly = await seedJob(t.deps.prisma, pipeline, { status: "success" });
    await storeArtifact(t, traceOnly, "trace", null);
    const expired = await seedJob(t.deps.prisma, pipeline, { status: "success", name: "expired" });
    const stale = await storeArtifact(t, expired, "archive", new Date(Date.now() - 1000));
    const fresh = await seedJob(t.deps.prisma, pipeline, { status: "success", name: "fresh" });
    await storeArtifact(t, fresh, "archive", soon());
    for (const [projectId, jobId] of [
      [1, traceOnly.id],
      [1, expired.id],
    ]) {
      expect(await keep(projectId!, jobId!).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual(notFound);
    }
    expect((await t.deps.prisma.jobArtifact.findUniqueOrThrow({ where: { id: stale.id } })).expireAt).not.toBeNull();
    expect(await keep(2, fresh.id).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 404, body: { message: "404 Not found" } });
  });
});
