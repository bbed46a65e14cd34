// Retention: delivery records, finished queue rows and spent rate-limit windows would otherwise
// grow forever. Plain DELETEs by age: idempotent, so every replica may run them.
import type { HookDeps } from "../deps.ts";

const DAY_MS = 24 * 3600_000;

/** How long things are kept. */
export interface Retention {
  /** Delivery records (GitLab pruned web_hook_logs after 90 days; the events API shows seven). */
  logDays: number;
  /**
   * Delivered, failed and dropped queue rows. Their (event, hook) key is what makes a bus
   * redelivery a no-op, so they outlive any redelivery by far.
   */
  finishedDeliveryDays: number;
}

export const DEFAULT_RETENTION: Retention = { logDays: 90, finishedDeliveryDays: 7 };

/** Deletes what is past retention; returns the counts. */
export async function pruneDeliveryData(
  deps: Pick<HookDeps, "prisma">,
  retention: Retention = DEFAULT_RETENTION,
  now = new Date(),
): Promise<{ logs: number; deliveries: number; rateLimits: number }> {
  const logs = await deps.prisma.webHookLog.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - retention.logDays * DAY_MS) } } });
  const deliveries = await deps.prisma.webHookDelivery.deleteMany({
    where: { state: { not: "pending" }, createdAt: { lt: new Date(now.getTime() - retention.finishedDeliveryDays * DAY_MS) } },
  });
  // A window older than a minute restarts at the next request anyway.
  const rateLimits = await deps.prisma.webHookRateLimit.deleteMany({ where: { windowStart: { lt: new Date(now.getTime() - 60_000) } } });
  return { logs: logs.count, deliveries: deliveries.count, rateLimits: rateLimits.count };
}
