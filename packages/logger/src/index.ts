import { pino, type Logger } from "pino";

export type { Logger };

/**
 * One JSON logger per service; `service` is on every line so that the embedded mode's single
 * output stream stays readable.
 */
export function createLogger(service: string, level: string = "info"): Logger {
  return pino({ name: service, level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}

/** A logger that drops everything (tests). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
