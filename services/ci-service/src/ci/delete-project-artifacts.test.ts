import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { objectExists, storeArtifact } from "../../test/artifacts.ts";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import type { Pipeline } from "../generated/prisma/client.ts";
import { artifactCleanup } from "../workers/artifact-cleanup.ts";
import { deleteProjectArtifacts } from "./delete-project-artifacts.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_delete_project_artifacts");
});
afterAll(() => t?.close());

const later = new Date(Date.now() + 86_400_000);

/** A pipeline with one finished job that has an archive (kept or expiring later) and a trace. */
async function pipelineWithArtifacts(data: Parameters<typeof seedPipeline>[1]) {
  const pipeline = await seedPipeline(t.deps.prisma, data);
  const job = await seedJob(t.deps.prisma, pipeline, { status: pipeline.status === "success" ? "success" : "failed" });
  const archive = await storeArtifact(t, job, "archive", pipeline.id % 2 ? null : later);
  const trace = await storeArtifact(t, job, "trace", null);
  return { pipeline, archive, trace };
}
const child = (parent: Pipeline) => pipelineWithArtifacts({ parentPipelineId: parent.id, source: "parent_pipeline", ref: parent.ref, status: parent.status });

describe("DeleteProjectArtifacts", () => {
  it("expires every artifact but traces and those of each ref's latest successful pipeline (and newer ones), for the cleanup to remove", async () => {
    const oldMain = await pipelineWithArtifacts({ ref: "main", status: "success" });
    const oldMainChild = await child(oldMain.pipeline);
    const failedFeature = await pipelineWithArtifacts({ ref: "feature", status: "failed" });
    const latestMain = await pipelineWithArtifacts({ ref: "main", status: "success" });
    const latestMainChild = await child(latestMain.pipeline);
    const newerFailedMain = await pipelineWithArtifacts({ ref: "main", status: "failed" });
    const mainTag = await pipelineWithArtifacts({ ref: "main", tag: true, status: "success" });
    const feature = await pipelineWithArtifacts({ ref: "feature", status: "success" });
    const otherProject = [
      await pipelineWithArtifacts({ projectId: 2, ref: "main", status: "success" }),
      await pipelineWithArtifacts({ projectId: 2, ref: "main", status: "success" }),
    ];

    const before = new Date();
    expect(await deleteProjectArtifacts(t.deps)({ projectId: 1 })).toEqual({});
    const expireAt = async (a: { id: number }) => (await t.deps.prisma.jobArtifact.findUniqueOrThrow({ where: { id: a.id } })).expireAt;
    const expired = [oldMain, oldMainChild, failedFeature];
    for (const p of expired) {
      expect((await expireAt(p.archive))!.getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect((await expireAt(p.archive))!.getTime()).toBeLessThanOrEqual(Date.now());
    }
    const locked = [latestMain, latestMainChild, newerFailedMain, mainTag, feature, ...otherProject];
    for (const p of locked) expect(await expireAt(p.archive)).toEqual(p.archive.expireAt);
    for (const p of [...expired, ...locked]) expect(await expireAt(p.trace)).toBeNull();

    const removed = await artifactCleanup(t.deps).runOnce();
    expect(removed.toSorted((a, b) => a - b)).toEqual(expired.map((p) => p.archive.id));
    for (const p of expired) expect(await objectExists(t, p.archive)).toBe(false);
    for (const p of locked) expect(await objectExists(t, p.archive)).toBe(true);
  });
});
