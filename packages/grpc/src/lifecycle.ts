import type { Logger } from "@quarry/logger";

/**
 * Process lifecycle of a service entry point: on SIGINT/SIGTERM run the stops in order
 * (server first, then its connections) and exit; a second signal exits at once. A promise
 * rejection nobody handled is logged instead of ending the process: one request's failure must
 * not take down every service (the embedded mode runs all of them in this process).
 */
export function stopOnSignals(log: Logger, ...stops: (() => Promise<unknown> | unknown)[]): void {
  process.on("unhandledRejection", (reason) => log.error({ err: reason }, "unhandled promise rejection (the process goes on)"));
  let stopping = false;
  const handler = async (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, "stopping");
    for (const stop of stops) {
      try {
        await stop();
      } catch (err) {
        log.warn({ err }, "stop step failed");
      }
    }
    process.exit(0);
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
}
