import { setTimeout as delay } from "node:timers/promises";

/** The part of a pino logger the runner uses (any @quarry/logger Logger fits). */
export interface RunnerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export const silentLog: RunnerLog = { info() {}, warn() {}, error() {}, debug() {} };

/** Waits `ms`, or less when `signal` aborts; never rejects. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch(() => undefined);
}

/** ANSI styling of the lines the runner itself writes into a job log, as gitlab-runner colours them. */
export const style = {
  command: (s: string) => `\x1b[32;1m${s}\x1b[0;m`,
  success: (s: string) => `\x1b[32;1m${s}\x1b[0;m`,
  header: (s: string) => `\x1b[36;1m${s}\x1b[0;m`,
  warning: (s: string) => `\x1b[0;33mWARNING: ${s}\x1b[0;m`,
  error: (s: string) => `\x1b[31;1mERROR: ${s}\x1b[0;m`,
};
