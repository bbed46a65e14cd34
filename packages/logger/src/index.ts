import { pino, type DestinationStream, type Logger } from "pino";

export type { DestinationStream, Logger };

/**
 * One JSON logger per service; `service` is on every line so that the embedded mode's single
 * output stream stays readable.
 */
export function createLogger(service: string, level: string = "info", destination?: DestinationStream): Logger {
  const options = { name: service, level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime };
  // Standard output unless told otherwise (tests read the lines from their own stream).
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that drops everything (tests). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

/** A logger that keeps its lines, parsed, in `records` (tests that check what was logged). */
export function memoryLogger(service = "test", level = "debug"): { log: Logger; records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  const log = createLogger(service, level, { write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, records };
}
