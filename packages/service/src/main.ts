import { createBus, type EventBus } from "@quarry/bus";
import { createMetrics, setProcessMetrics, stopOnSignals } from "@quarry/grpc";
import { createLogger, type Logger } from "@quarry/logger";
import { loadMetricsEnv } from "./env.ts";
import { type MetricsListener, serveMetrics } from "./metrics-server.ts";

/** The env every service entry reads besides its own settings (see each service's env.ts). */
export interface ProcessEnv {
  LOG_LEVEL: string;
  /** NATS JetStream; unset = in-process bus. */
  NATS_URL?: string;
}

/**
 * A service's process entry (its `src/main.ts`, distributed mode): env → logger → metrics → bus →
 * `start` → stop on SIGINT/SIGTERM (the service, then the bus, then the metrics listener). A
 * `start` that throws closes the bus and rethrows (the process exits with the error).
 *
 * Metrics: unless METRICS_PORT is 0, the process's registry (const label `service`) is what the
 * service's server and clients count into, served on GET /metrics at METRICS_HOST:METRICS_PORT.
 */
export async function runServiceProcess<E extends ProcessEnv>(
  name: string,
  loadEnv: () => E,
  start: (p: { env: E; log: Logger; bus: EventBus }) => Promise<{ stop(): Promise<void> }>,
): Promise<void> {
  const env = loadEnv();
  const log = createLogger(name, env.LOG_LEVEL);
  const metricsListener = await startProcessMetrics(name, log);
  const bus = await createBus({ natsUrl: env.NATS_URL, name, log });
  let service: { stop(): Promise<void> };
  try {
    service = await start({ env, log, bus });
  } catch (err) {
    await bus.close().catch(() => {});
    await metricsListener?.close();
    throw err;
  }
  stopOnSignals(
    log,
    () => service.stop(),
    () => bus.close(),
    () => metricsListener?.close(),
  );
}

/**
 * Turns on the process's metrics and their listener, as METRICS_PORT says. A port already taken
 * (several services on one host, all on the default port) leaves the service running without
 * /metrics rather than not running: the error line says which port to change.
 */
export async function startProcessMetrics(name: string, log: Logger, source?: Record<string, string | undefined>): Promise<MetricsListener | undefined> {
  const env = loadMetricsEnv(source);
  if (env.METRICS_PORT === 0) return undefined;
  const metrics = createMetrics(name, { log });
  setProcessMetrics(metrics);
  try {
    const listener = await serveMetrics(metrics, { host: env.METRICS_HOST, port: env.METRICS_PORT, log });
    log.info({ port: listener.port }, "metrics listening");
    return listener;
  } catch (err) {
    setProcessMetrics(undefined);
    log.error({ err, port: env.METRICS_PORT }, "metrics listener could not start (set METRICS_PORT, 0 = off); /metrics is off");
    return undefined;
  }
}
