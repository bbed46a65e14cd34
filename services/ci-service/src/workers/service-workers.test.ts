import { startLoneCiService } from "../../test/support.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { InProcessBus } from "@quarry/bus";
import { silentLogger } from "@quarry/logger";
import { LocalDiskObjectStore } from "@quarry/object-store";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import type { RunningCiService } from "../server.ts";

let db: TestDatabase;
let root: string;
let bus: InProcessBus;
let svc: RunningCiService;
beforeAll(async () => {
  db = await createTestDatabase("ci_service_workers");
  root = await mkdtemp(path.join(tmpdir(), "quarry-ci-workers-"));
  const objectStore = new LocalDiskObjectStore({ root, bucket: "artifacts" });
  await objectStore.ensureBucket();
  bus = new InProcessBus({ log: silentLogger() });
  // No pipelines are created through the services, so repo- and identity-service are never called.
  svc = await startLoneCiService({ databaseUrl: db.url, bus, objectStore, settings: { workerIntervalSeconds: 0.01 } });
});
afterAll(async () => {
  await svc?.stop();
  await bus?.close();
  await db?.drop();
  await rm(root, { recursive: true, force: true });
});

/** Polls until `check` holds (the test's own timeout bounds the wait). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("startCiService", () => {
  it("runs the watchdog and the artifact cleanup in the background until stopped", async () => {
    const { prisma, objectStore } = svc.deps;
    const pipeline = await seedPipeline(prisma, { status: "running" });
    const silentSince = new Date(Date.now() - 2 * svc.deps.settings.runnerSilenceTimeoutSeconds * 1000);
    const job = await seedJob(prisma, pipeline, { status: "running", startedAt: new Date(), lastRunnerContactAt: silentSince });
    await objectStore.put("expired/archive.zip", "zip");
    await prisma.jobArtifact.create({
      data: {
        jobId: job.id,
        projectId: 1,
        fileType: "archive",
        fileFormat: "zip",
        filename: "artifacts.zip",
        size: 3,
        objectKey: "expired/archive.zip",
        expireAt: new Date(Date.now() - 1000),
      },
    });

    await eventually(async () => (await prisma.job.findUniqueOrThrow({ where: { id: job.id } })).status === "failed");
    await eventually(async () => (await prisma.jobArtifact.count({ where: { jobId: job.id } })) === 0);
    expect(await prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ failureReason: "stuck_or_timeout_failure" });
    expect(await objectStore.stat("expired/archive.zip")).toBeNull();
    expect(await prisma.pipeline.findUniqueOrThrow({ where: { id: pipeline.id } })).toMatchObject({ status: "failed" });
  });
});
