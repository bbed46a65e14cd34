// GitLab's Gitlab::ApplicationRateLimiter for webhook resends and tests, kept in PostgreSQL so
// every replica counts together: fixed one-minute windows per key.
import { status } from "@grpc/grpc-js";
import { ServiceError } from "@quarry/grpc";
import type { HookDeps } from "../deps.ts";

export const RATE_LIMITED_MESSAGE = "This endpoint has been requested too many times. Try again later.";

/** Counts one request for `key`; RESOURCE_EXHAUSTED (HTTP 429) past `settings.rateLimitPerMinute`. */
export async function checkRateLimit(deps: Pick<HookDeps, "prisma" | "settings">, key: string, now = new Date()): Promise<void> {
  const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const row = await deps.prisma.webHookRateLimit.upsert({
    where: { key_windowStart: { key, windowStart } },
    create: { key, windowStart, count: 1 },
    update: { count: { increment: 1 } },
  });
  // Old windows are of no further use.
  if (row.count === 1) await deps.prisma.webHookRateLimit.deleteMany({ where: { key, windowStart: { lt: windowStart } } });
  if (row.count > deps.settings.rateLimitPerMinute) {
    throw new ServiceError(status.RESOURCE_EXHAUSTED, { message: RATE_LIMITED_MESSAGE }, 429);
  }
}
