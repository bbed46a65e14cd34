// ci-service's queue-depth gauges, read on scrape from real PostgreSQL, and their wiring into a
// started ci-service whose process has metrics.
import { startLoneCiService } from "../test/support.ts";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InProcessBus } from "@quarry/bus";
import { createClient, createMetrics, setProcessMetrics } from "@quarry/grpc";
import { LocalDiskObjectStore } from "@quarry/object-store";
import { ciV1 } from "@quarry/proto";
import { createTestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type TestContext } from "../test/support.ts";
import { seedJob, seedPipeline } from "../test/rows.ts";
import { registerCiMetrics } from "./metrics.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_metrics");
});
afterAll(() => t.close());

describe("ci-service metrics", () => {
  it("count the runner jobs pending and running on every scrape", async () => {
    const metrics = createMetrics("ci-service", { defaultMetrics: false });
    registerCiMetrics(metrics, t.deps.prisma);
    expect(await metrics.text()).toContain('quarry_ci_jobs_pending{service="ci-service"} 0');

    const pipeline = await seedPipeline(t.deps.prisma);
    await seedJob(t.deps.prisma, pipeline, { name: "waits", status: "pending" });
    await seedJob(t.deps.prisma, pipeline, { name: "runs", status: "running" });
    await seedJob(t.deps.prisma, pipeline, { name: "later", status: "created" });
    // A bridge waits for no runner.
    await seedJob(t.deps.prisma, pipeline, { name: "trigger", status: "pending", type: "bridge" });
    // Past the shared reading's lifetime, the next scrape asks again.
    await new Promise((r) => setTimeout(r, 1_100));
    const text = await metrics.text();
    expect(text).toContain('quarry_ci_jobs_pending{service="ci-service"} 1');
    expect(text).toContain('quarry_ci_jobs_running{service="ci-service"} 1');
  });

  it("are registered by a ci-service started in a process with metrics, beside its gRPC call counters", async () => {
    const metrics = createMetrics("ci-service", { defaultMetrics: false });
    setProcessMetrics(metrics);
    const db = await createTestDatabase("ci_metrics_started");
    const bus = new InProcessBus();
    const root = mkdtempSync(path.join(os.tmpdir(), "quarry-ci-metrics-"));
    try {
      const store = new LocalDiskObjectStore({ root, bucket: "artifacts" });
      await store.ensureBucket();
      const svc = await startLoneCiService({ databaseUrl: db.url, bus, objectStore: store });
      try {
        const client = createClient(ciV1.CiService, svc.address, { deadlineMs: 10_000, metrics: createMetrics("caller", { defaultMetrics: false }) });
        await client.GetStorageInfo({});
        client.close();
        const text = await metrics.text();
        expect(text).toContain('quarry_ci_jobs_pending{service="ci-service"} 0');
        expect(text).toContain(
          'grpc_server_handled_total{grpc_service="quarry.ci.v1.CiService",grpc_method="GetStorageInfo",grpc_code="OK",service="ci-service"} 1',
        );
      } finally {
        await svc.stop();
      }
    } finally {
      setProcessMetrics(undefined);
      await bus.close();
      await db.drop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
