import { type Metrics, sharedReading } from "@quarry/grpc";
import type { PrismaClient } from "./generated/prisma/client.ts";

/**
 * hook-service's delivery queue, read on scrape: deliveries not yet done
 * (`quarry_hook_deliveries_pending`, retries waiting included) and those of them whose attempt is
 * due now (`quarry_hook_deliveries_due`: a growing number means the workers fall behind). One
 * query on the web_hook_deliveries(state, next_attempt_at) index.
 */
export function registerHookMetrics(metrics: Metrics, prisma: PrismaClient): void {
  const read = sharedReading(async () => {
    const [row] = await prisma.$queryRaw<{ pending: bigint; due: bigint }[]>`
      SELECT count(*) AS pending, count(*) FILTER (WHERE next_attempt_at <= now()) AS due
      FROM web_hook_deliveries WHERE state = 'pending'`;
    return { pending: Number(row?.pending ?? 0), due: Number(row?.due ?? 0) };
  });
  metrics.scrapeGauge({
    name: "quarry_hook_deliveries_pending",
    help: "Webhook deliveries not yet delivered, failed or dropped.",
    collect: async () => (await read()).pending,
  });
  metrics.scrapeGauge({
    name: "quarry_hook_deliveries_due",
    help: "Pending webhook deliveries whose next attempt is due.",
    collect: async () => (await read()).due,
  });
}
