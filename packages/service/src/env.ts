import { envPort, parseEnv, z } from "@quarry/env";

/** What every service process reads besides its own env.ts: where Prometheus scrapes it. */
export const metricsEnvShape = {
  /** Port of the process's GET /metrics listener; 0 = no listener (and no metrics). */
  METRICS_PORT: envPort(9464),
  METRICS_HOST: z.string().default("0.0.0.0"),
};

export type MetricsEnv = ReturnType<typeof loadMetricsEnv>;

export function loadMetricsEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(metricsEnvShape, source);
}
