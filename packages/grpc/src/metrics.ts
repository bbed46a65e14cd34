import { status as grpcStatus } from "@grpc/grpc-js";
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, type MetricObjectWithValues, type MetricValue, Registry } from "prom-client";
import type { Logger } from "@quarry/logger";

/** Latency buckets (seconds) of the request and call histograms: most answers take milliseconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A scrape-time gauge's reading: one number, or one per label set. */
export type GaugeReading = number | { labels: Record<string, string>; value: number }[];

export interface ScrapeGaugeOptions {
  name: string;
  help: string;
  labelNames?: string[];
  /** Asked on every scrape (keep it cheap: one indexed query); a failure keeps the last reading. */
  collect: () => Promise<GaugeReading> | GaugeReading;
}

/** Records one finished call: its status code and how long it took. */
export type CallRecorder = (code: number, seconds: number) => void;

/**
 * One process's (or one service's) Prometheus registry: every metric carries the const label
 * `service`, so that series from many processes (or the embedded mode's many services) stay apart
 * when aggregated.
 */
export interface Metrics {
  readonly service: string;
  readonly registry: Registry;
  /** registry.contentType: `text/plain; version=0.0.4; charset=utf-8`. */
  readonly contentType: string;
  /** The registry in the Prometheus text format (what GET /metrics answers). */
  text(): Promise<string>;
  /**
   * The registry as JSON (`registry.getMetricsAsJSON()`), for a process that aggregates the
   * registries of services it runs elsewhere (worker threads) with prom-client's AggregatorRegistry.
   */
  json(): Promise<MetricObjectWithValues<MetricValue<string>>[]>;
  /** A gauge read on scrape (queue depths, pool use). */
  scrapeGauge(o: ScrapeGaugeOptions): void;
  /** Recorder of gRPC calls served (`grpc_server_handled_total`, `grpc_server_handling_seconds`). */
  grpcServerCall(service: string, method: string): CallRecorder;
  /** Recorder of gRPC calls made (`grpc_client_handled_total`, `grpc_client_handling_seconds`). */
  grpcClientCall(service: string, method: string): CallRecorder;
  /**
   * Recorder of HTTP requests answered (`http_requests_total`, `http_request_duration_seconds`),
   * by method, route template (never the raw path: bounded label values) and status.
   */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
}

export interface MetricsOptions {
  /** Process metrics (CPU, memory, GC, event-loop lag); default true. */
  defaultMetrics?: boolean;
  /** Where failed scrape-time collections are reported. */
  log?: Logger;
}

/** gRPC status names by code ("OK", "NOT_FOUND", …), as the grpc_code label says them. */
const CODE_NAMES: string[] = [];
for (const [name, code] of Object.entries(grpcStatus)) if (typeof code === "number") CODE_NAMES[code] = name;
const codeName = (code: number) => CODE_NAMES[code] ?? String(code);

/** A failing collect() must not hang the scrape: past this, the last reading stands. */
const COLLECT_TIMEOUT_MS = 2_000;

export function createMetrics(service: string, o: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (o.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  const collectFailures = new Counter({
    name: "quarry_metrics_collect_failures_total",
    // A scrape may write this before the failing gauge is read: a failure shows by the next scrape.
    help: "Scrape-time gauges whose reading failed (the last reading was kept).",
    labelNames: ["metric"],
    registers: [registry],
  });
  let server: CallMetrics | undefined;
  let client: CallMetrics | undefined;
  let http: HttpMetrics | undefined;
  return {
    service,
    registry,
    contentType: registry.contentType,
    text: () => registry.metrics(),
    json: () => registry.getMetricsAsJSON(),
    scrapeGauge(g) {
      const labelled = (g.labelNames?.length ?? 0) > 0;
      new Gauge({
        name: g.name,
        help: g.help,
        labelNames: g.labelNames ?? [],
        registers: [registry],
        async collect() {
          let timer: NodeJS.Timeout | undefined;
          try {
            const reading = await Promise.race([
              Promise.resolve().then(g.collect),
              new Promise<never>((_, reject) => {
                timer = setTimeout(() => reject(new Error(`${g.name}: collect timed out`)), COLLECT_TIMEOUT_MS);
              }),
            ]);
            if (typeof reading === "number") this.set(reading);
            else {
              // Label sets that went away (an empty queue) must not linger with their last value.
              if (labelled) this.reset();
              for (const r of reading) this.set(r.labels, r.value);
            }
          } catch (err) {
            collectFailures.inc({ metric: g.name });
            o.log?.warn({ err, metric: g.name }, "metric collection failed");
          } finally {
            clearTimeout(timer);
          }
        },
      });
    },
    // Each family is registered on first use: a registry shows only what its process does.
    grpcServerCall(svc, method) {
      server ??= new CallMetrics(registry, "server");
      return server.recorder(svc, method);
    },
    grpcClientCall(svc, method) {
      client ??= new CallMetrics(registry, "client");
      return client.recorder(svc, method);
    },
    httpRequest(method, route, status, seconds) {
      http ??= new HttpMetrics(registry);
      http.record(method, route, status, seconds);
    },
  };
}

type Child = { inc(): void; observe(v: number): void };

/** The HTTP request counter and histogram; label children cached by method, status and route. */
class HttpMetrics {
  private readonly requests: Counter<"method" | "route" | "status">;
  private readonly seconds: Histogram<"method" | "route" | "status">;
  private readonly children = new Map<string, Child>();

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by method, route template and status.",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    });
    this.seconds = new Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer HTTP requests (seconds), by method, route template and status.",
      labelNames: ["method", "route", "status"],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let child = this.children.get(key);
    if (!child) {
      const labels = { method, route, status: String(status) };
      const count = this.requests.labels(labels);
      const hist = this.seconds.labels(labels);
      child = { inc: () => count.inc(), observe: (v) => hist.observe(v) };
      this.children.set(key, child);
    }
    child.inc();
    child.observe(seconds);
  }
}

/**
 * The counter and histogram of one side's calls. The label children are looked up once per
 * method and code, so that recording a call is an array read, an increment and an observe.
 */
class CallMetrics {
  private readonly handled: Counter<"grpc_service" | "grpc_method" | "grpc_code">;
  private readonly seconds: Histogram<"grpc_service" | "grpc_method" | "grpc_code">;

  constructor(registry: Registry, side: "server" | "client") {
    const verb = side === "server" ? "served" : "made";
    this.handled = new Counter({
      name: `grpc_${side}_handled_total`,
      help: `gRPC calls ${verb}, by method and status code.`,
      labelNames: ["grpc_service", "grpc_method", "grpc_code"],
      registers: [registry],
    });
    this.seconds = new Histogram({
      name: `grpc_${side}_handling_seconds`,
      help: `Duration of the gRPC calls ${verb} (seconds), by method and status code.`,
      labelNames: ["grpc_service", "grpc_method", "grpc_code"],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  recorder(service: string, method: string): CallRecorder {
    const byCode: Child[] = [];
    return (code, seconds) => {
      let child = byCode[code];
      if (!child) {
        const labels = { grpc_service: service, grpc_method: method, grpc_code: codeName(code) };
        const count = this.handled.labels(labels);
        const hist = this.seconds.labels(labels);
        child = byCode[code] = {
          inc: () => count.inc(),
          observe: (v) => hist.observe(v),
        };
      }
      child.inc();
      child.observe(seconds);
    };
  }
}

/** Seconds since `started` (a `process.hrtime.bigint()` reading). */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * The metrics of a process that runs one service (set by its entry, `runServiceProcess`): the
 * clients and the server it creates count into them unless told otherwise. Unset in the embedded
 * mode, where one process runs every service and none of them opens a /metrics listener.
 */
let forProcess: Metrics | undefined;

/** One registry's metrics as JSON (Metrics.json()): what crosses between threads to be merged. */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/**
 * Several registries (the embedded mode's threads and services) as one Prometheus text: series
 * stay apart by their `service` label; a metric several registries have becomes one family.
 */
export async function mergedMetricsText(parts: MetricsJson[]): Promise<string> {
  return AggregatorRegistry.aggregate(parts).metrics();
}

export function setProcessMetrics(metrics: Metrics | undefined): void {
  forProcess = metrics;
}

export function processMetrics(): Metrics | undefined {
  return forProcess;
}

/**
 * One reading shared by the gauges a single query feeds (one scrape asks each of them): calls
 * within `maxAgeMs` of a reading, or while it is under way, get the same promise.
 */
export function sharedReading<T>(read: () => Promise<T>, maxAgeMs = 1_000): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > maxAgeMs) {
      const value = read();
      last = { at: now, value };
      // A failed reading is not kept: the next scrape asks again.
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}
