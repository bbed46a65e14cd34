import { inspect } from "node:util";

export interface WaitForOptions {
  /** Give up after this long. Default 10000. */
  timeoutMs?: number;
  /** Pause between attempts. Default 25. */
  intervalMs?: number;
  /** Included in the timeout error, to say what was awaited. */
  message?: string;
}

type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

/**
 * Polls `fn` until it returns a truthy value without throwing, and resolves
 * with that value. Use instead of sleeps. A falsy result or a thrown error
 * means "not yet"; note that a callback returning nothing (`undefined`) is
 * never done — return `true` from assertion-style callbacks.
 * On timeout, rejects with `message` and the last error (also as `cause`) or value.
 */
export async function waitFor<T>(fn: () => T | Promise<T>, opts: WaitForOptions = {}): Promise<Truthy<T>> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const intervalMs = opts.intervalMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let lastValue: unknown;
  let failed = false;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value as Truthy<T>;
      failed = false;
      lastValue = value;
    } catch (err) {
      failed = true;
      lastError = err;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, remaining)));
  }
  const what = opts.message ? `: ${opts.message}` : "";
  const last = failed
    ? `last error: ${lastError instanceof Error ? lastError.message : inspect(lastError)}`
    : `last value: ${inspect(lastValue)}${lastValue === undefined ? " (return a truthy value to signal success)" : ""}`;
  throw new Error(`waitFor timed out after ${timeoutMs}ms${what}; ${last}`, failed ? { cause: lastError } : undefined);
}
