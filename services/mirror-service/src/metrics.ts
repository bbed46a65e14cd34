import { type Metrics, sharedReading } from "@quarry/grpc";
import type { PrismaClient } from "./generated/prisma/client.ts";

/**
 * mirror-service's sync queue, read on scrape: mirrors waiting for a sync
 * (`quarry_mirrors_scheduled`), syncing (`quarry_mirrors_running`), and due, i.e. what the sweep
 * would claim now (`quarry_mirrors_due`: scheduled ones and started ones whose lease ran out).
 * One query on the remote_mirrors(update_status) index.
 */
export function registerMirrorMetrics(metrics: Metrics, prisma: PrismaClient): void {
  const read = sharedReading(async () => {
    const [row] = await prisma.$queryRaw<{ scheduled: bigint; started: bigint; lost: bigint }[]>`
      SELECT count(*) FILTER (WHERE update_status = 'scheduled') AS scheduled,
             count(*) FILTER (WHERE update_status = 'started') AS started,
             count(*) FILTER (WHERE update_status = 'started' AND lease_expires_at < now()) AS lost
      FROM remote_mirrors WHERE update_status IN ('scheduled', 'started')`;
    const n = (v: bigint | undefined) => Number(v ?? 0);
    return { scheduled: n(row?.scheduled), running: n(row?.started) - n(row?.lost), due: n(row?.scheduled) + n(row?.lost) };
  });
  metrics.scrapeGauge({ name: "quarry_mirrors_scheduled", help: "Push mirrors waiting for a sync.", collect: async () => (await read()).scheduled });
  metrics.scrapeGauge({ name: "quarry_mirrors_running", help: "Push mirror syncs under way (lease alive).", collect: async () => (await read()).running });
  metrics.scrapeGauge({
    name: "quarry_mirrors_due",
    help: "Push mirrors the sweep would claim now: scheduled, or started with an expired lease.",
    collect: async () => (await read()).due,
  });
}
