// The delivery worker: claims due deliveries (FOR UPDATE SKIP LOCKED, so replicas share the
// queue), sends them, and reschedules retries with exponential backoff.
import type { HookDeps } from "../deps.ts";
import type { WebHookDelivery } from "../generated/prisma/client.ts";
import { executeHook } from "./execute.ts";
import { pruneDeliveryData } from "./prune.ts";

const BATCH = 10;
/** A claimed delivery is invisible to other workers this long beyond the request timeout. */
const LEASE_MARGIN_MS = 30_000;

/** Claims up to `limit` due deliveries by pushing their next_attempt_at past the lease. */
export async function claimDeliveries(deps: HookDeps, limit = BATCH): Promise<WebHookDelivery[]> {
  const now = new Date();
  return deps.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM web_hook_deliveries
      WHERE state = 'pending' AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`;
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    await tx.webHookDelivery.updateMany({
      where: { id: { in: ids } },
      data: { nextAttemptAt: new Date(now.getTime() + deps.settings.timeoutMs + LEASE_MARGIN_MS) },
    });
    return tx.webHookDelivery.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
  });
}

/** Delay before attempt `attempts + 1`: base × 2^(attempts − 1). */
export function retryDelay(deps: Pick<HookDeps, "settings">, attempts: number): number {
  return deps.settings.retryBaseMs * 2 ** Math.max(0, attempts - 1);
}

/** Sends one claimed delivery and moves it on: delivered, failed, dropped, or pending again later. */
export async function processDelivery(deps: HookDeps, d: WebHookDelivery): Promise<void> {
  // Read at send time, not with the claim: the hook's disabled state is as fresh as it can be.
  const hook = await deps.prisma.webHook.findUnique({ where: { id: d.hookId } });
  if (!hook) return; // deleted: the row went with it
  if (hook.permanentlyDisabled) {
    await deps.prisma.webHookDelivery.update({ where: { id: d.id }, data: { state: "dropped" } });
    return;
  }
  if (hook.disabledUntil && hook.disabledUntil > new Date()) {
    await deps.prisma.webHookDelivery.update({ where: { id: d.id }, data: { nextAttemptAt: hook.disabledUntil } });
    return;
  }
  const attempts = d.attempts + 1;
  const result = await executeHook(
    deps,
    hook,
    { trigger: d.trigger, payload: d.payload, idempotencyKey: d.idempotencyKey, eventUuid: d.eventUuid },
    { retriesLeft: attempts < deps.settings.maxAttempts },
  );
  if (result.success) {
    await deps.prisma.webHookDelivery.update({ where: { id: d.id }, data: { attempts, state: "delivered" } });
  } else if (result.retryable && attempts < deps.settings.maxAttempts) {
    await deps.prisma.webHookDelivery.update({
      where: { id: d.id },
      data: { attempts, nextAttemptAt: new Date(Date.now() + retryDelay(deps, attempts)) },
    });
  } else {
    await deps.prisma.webHookDelivery.update({ where: { id: d.id }, data: { attempts, state: "failed" } });
  }
}

export interface DeliveryWorker {
  /** Look for due deliveries now. */
  wake(): void;
  stop(): Promise<void>;
}

/** Polls every settings.pollIntervalMs and on wake(); one pass at a time per process. */
export function startDeliveryWorker(deps: HookDeps): DeliveryWorker {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let lastPrune = 0;

  const pass = async () => {
    if (Date.now() - lastPrune >= deps.settings.pruneIntervalMs) {
      lastPrune = Date.now();
      const pruned = await pruneDeliveryData(deps);
      if (pruned.logs || pruned.deliveries) deps.log.info(pruned, "pruned webhook delivery data");
    }
    for (;;) {
      const batch = await claimDeliveries(deps);
      if (!batch.length || stopped) return;
      await Promise.all(
        batch.map((d) => processDelivery(deps, d).catch((err: unknown) => deps.log.warn({ err, deliveryId: String(d.id) }, "webhook delivery failed"))),
      );
    }
  };
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    running = pass()
      .catch((err: unknown) => deps.log.warn({ err }, "webhook delivery pass failed"))
      .finally(() => {
        running = null;
        if (stopped) return;
        if (again) {
          again = false;
          run();
        } else timer = setTimeout(run, deps.settings.pollIntervalMs);
      });
  };
  timer = setTimeout(run, 0);
  return {
    wake: run,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
