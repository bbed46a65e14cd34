import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { objectExists, storeArtifact } from "../../test/artifacts.ts";
import { jobsOf, pipelineFrom } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { artifactCleanup } from "./artifact-cleanup.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_artifact_cleanup", { repo: true });
}, 60_000);
afterAll(() => t.close());

const past = new Date(Date.now() - 60_000);
const future = new Date(Date.now() + 3_600_000);

describe("artifact cleanup", () => {
  it("removes the objects and rows of expired artifacts, never traces, kept or unexpired ones", async () => {
    const { pipeline } = await pipelineFrom(t, "a:\n  script: x\nb:\n  script: x\n");
    const [a, b] = await jobsOf(t, pipeline.id);
    const expired = [await storeArtifact(t, a!, "archive", past), await storeArtifact(t, a!, "metadata", past), await storeArtifact(t, a!, "junit", past)];
    const trace = await storeArtifact(t, a!, "trace", past);
    const kept = await storeArtifact(t, b!, "archive", null);
    const later = await storeArtifact(t, b!, "metadata", future);
    // An object already gone is no error.
    await t.deps.objectStore.delete(expired[2]!.objectKey);

    const removed = await artifactCleanup(t.deps, 2).runOnce();
    expect(removed.toSorted((x, y) => x - y)).toEqual(expired.map((x) => x.id));
    for (const artifact of expired) expect(await objectExists(t, artifact)).toBe(false);
    const left = await t.deps.prisma.jobArtifact.findMany({ where: { jobId: { in: [a!.id, b!.id] } }, orderBy: { id: "asc" } });
    expect(left.map((x) => x.id)).toEqual([trace.id, kept.id, later.id]);
    for (const artifact of left) expect(await objectExists(t, artifact)).toBe(true);
    expect(await artifactCleanup(t.deps).runOnce()).toEqual([]);
  });

  it("removes every artifact exactly once when two replicas run at the same time", async () => {
    const yaml = Array.from({ length: 5 }, (_, i) => `job${i}:\n  script: x\n`).join("");
    const { pipeline } = await pipelineFrom(t, yaml);
    const artifacts = [];
    for (const job of await jobsOf(t, pipeline.id)) {
      for (const fileType of ["archive", "metadata", "junit"]) artifacts.push(await storeArtifact(t, job, fileType, past));
    }
    const runs = await Promise.all([artifactCleanup(t.deps, 2).runOnce(), artifactCleanup(t.deps, 2).runOnce()]);
    const removed = runs.flat();
    expect(removed.toSorted((x, y) => x - y)).toEqual(artifacts.map((x) => x.id));
    expect(new Set(removed).size).toBe(removed.length);
    expect(await t.deps.prisma.jobArtifact.count({ where: { id: { in: artifacts.map((x) => x.id) } } })).toBe(0);
    for (const artifact of artifacts) expect(await objectExists(t, artifact)).toBe(false);
  });
});
