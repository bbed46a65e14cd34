// GitLab's Gitlab::ApplicationRateLimiter for webhook resends and tests, kept in PostgreSQL so
// every replica counts together: a key's one-minute window opens with its first request.
import { status } from "@grpc/grpc-js";
import { ServiceError } from "@quarry/grpc";
import type { HookDeps } from "../deps.ts";

export const RATE_LIMITED_MESSAGE = "This endpoint has been requested too many times. Try again later.";
const WINDOW_MS = 60_000;

/** Counts one request for `key`; RESOURCE_EXHAUSTED (HTTP 429) past `settings.rateLimitPerMinute` in the window. */
export async function checkRateLimit(deps: Pick<HookDeps, "prisma" | "settings">, key: string, now = new Date()): Promise<void> {
  const expired = new Date(now.getTime() - WINDOW_MS);
  // One atomic statement: concurrent requests on any replica each see their own count.
  const rows = await deps.prisma.$queryRaw<{ count: number }[]>`
    INSERT INTO web_hook_rate_limits (key, window_start, count) VALUES (${key}, ${now}, 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN web_hook_rate_limits.window_start <= ${expired} THEN 1 ELSE web_hook_rate_limits.count + 1 END,
      window_start = CASE WHEN web_hook_rate_limits.window_start <= ${expired} THEN ${now} ELSE web_hook_rate_limits.window_start END
    RETURNING count`;
  if (Number(rows[0]!.count) > deps.settings.rateLimitPerMinute) {
    throw new ServiceError(status.RESOURCE_EXHAUSTED, { message: RATE_LIMITED_MESSAGE }, 429);
  }
}
