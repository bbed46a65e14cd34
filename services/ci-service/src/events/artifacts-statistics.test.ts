// The job artifacts total of a project, published after every change of its artifacts.
import type { ArtifactsStatisticsEvent } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeArtifact } from "../../test/artifacts.ts";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { deleteJobArtifacts } from "../ci/delete-job-artifacts.ts";
import { eraseJob } from "../ci/erase-job.ts";
import { artifactCleanup } from "../workers/artifact-cleanup.ts";
import { projectArtifactsSize, publishArtifactsStatistics } from "./artifacts-statistics.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_artifacts_statistics");
});
afterAll(() => t?.close());

let nextProject = 500;
/** The totals published for a project, in order. */
const totals = (projectId: number) =>
  t.published
    .filter((e) => e.subject === "quarry.ci.artifacts_statistics" && (e.data as ArtifactsStatisticsEvent).project_id === projectId)
    .map((e) => (e.data as ArtifactsStatisticsEvent).job_artifacts_size);
const sizeOf = (...artifacts: { size: bigint }[]) => artifacts.reduce((n, a) => n + Number(a.size), 0);

async function jobWith(projectId: number, fileTypes: string[], expireAt: Date | null = null) {
  const pipeline = await seedPipeline(t.deps.prisma, { projectId });
  const job = await seedJob(t.deps.prisma, pipeline, { status: "success" });
  const artifacts = [];
  for (const type of fileTypes) artifacts.push(await storeArtifact(t, job, type, expireAt));
  return { job, artifacts };
}

describe("artifacts statistics", () => {
  it("total every stored artifact of the project, traces included, and no other project's", async () => {
    const projectId = nextProject++;
    const one = await jobWith(projectId, ["archive", "metadata", "trace"]);
    const two = await jobWith(projectId, ["junit"]);
    await jobWith(nextProject++, ["archive"]);
    expect(await projectArtifactsSize(t.deps, projectId)).toBe(sizeOf(...one.artifacts, ...two.artifacts));
    expect(await projectArtifactsSize(t.deps, nextProject++)).toBe(0);
    await publishArtifactsStatistics(t.deps, [projectId, projectId]);
    expect(totals(projectId)).toEqual([sizeOf(...one.artifacts, ...two.artifacts)]);
    const event = t.published.findLast((e) => e.subject === "quarry.ci.artifacts_statistics")!.data as ArtifactsStatisticsEvent;
    expect(event.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(event.measured_at)).not.toBeNaN();
  });

  it("are published when a job's artifacts are deleted and when a job is erased", async () => {
    const projectId = nextProject++;
    const { job, artifacts } = await jobWith(projectId, ["archive", "metadata", "trace"]);
    await deleteJobArtifacts(t.deps)({ projectId, jobId: job.id, userId: 1, jobVariables: [] });
    expect(totals(projectId)).toEqual([sizeOf(artifacts[2]!)]);
    await eraseJob(t.deps)({ projectId, jobId: job.id, userId: 1, jobVariables: [] });
    expect(totals(projectId)).toEqual([sizeOf(artifacts[2]!), 0]);
  });

  it("are published for each project whose expired artifacts the cleanup removed", async () => {
    const a = nextProject++;
    const b = nextProject++;
    const past = new Date(Date.now() - 60_000);
    await jobWith(a, ["archive"], past);
    const kept = await jobWith(b, ["archive"], null);
    await jobWith(b, ["junit"], past);
    await artifactCleanup(t.deps).runOnce();
    expect(totals(a)).toEqual([0]);
    expect(totals(b)).toEqual([sizeOf(...kept.artifacts)]);
  });
});
