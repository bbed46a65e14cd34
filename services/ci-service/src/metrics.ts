import { type Metrics, sharedReading } from "@quarry/grpc";
import type { PrismaClient } from "./generated/prisma/client.ts";

/**
 * ci-service's queue depths, read on scrape: runner jobs waiting for a runner
 * (`quarry_ci_jobs_pending`) and being run (`quarry_ci_jobs_running`). One query on the
 * jobs(status, type, id) index for both.
 */
export function registerCiMetrics(metrics: Metrics, prisma: PrismaClient): void {
  const read = sharedReading(async () => {
    const rows = await prisma.job.groupBy({ by: ["status"], where: { status: { in: ["pending", "running"] }, type: "build" }, _count: { _all: true } });
    const count = (status: string) => rows.find((r) => r.status === status)?._count._all ?? 0;
    return { pending: count("pending"), running: count("running") };
  });
  metrics.scrapeGauge({ name: "quarry_ci_jobs_pending", help: "CI jobs waiting for a runner.", collect: async () => (await read()).pending });
  metrics.scrapeGauge({ name: "quarry_ci_jobs_running", help: "CI jobs a runner is running.", collect: async () => (await read()).running });
}
