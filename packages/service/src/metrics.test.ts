// A service's /metrics listener (real PostgreSQL, a real gRPC call): its calls by method and code,
// its scrape-time gauges, and who decides whether it has metrics at all.
import net from "node:net";
import { InProcessBus } from "@quarry/bus";
import { migrationChecksum } from "@quarry/database";
import { createClient, createMetrics, type Metrics, processMetrics, setProcessMetrics } from "@quarry/grpc";
import { memoryLogger, silentLogger } from "@quarry/logger";
import { ciV1 } from "@quarry/proto";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PrismaClient } from "./generated/prisma/client.ts";
import { type RunningService, serveMetrics, startProcessMetrics, startService } from "./index.ts";

const sql = `CREATE TABLE "Note" (id SERIAL PRIMARY KEY, body TEXT NOT NULL);`;
const migrations = [{ name: "20261125000000_init", sql, checksum: migrationChecksum(sql) }];
const { GetStorageInfo } = ciV1.CiService.service;
const log = silentLogger();

let db: TestDatabase;
let bus: InProcessBus;
const running: { stop(): Promise<unknown> }[] = [];

beforeEach(async () => {
  db = await createTestDatabase("service_metrics");
  bus = new InProcessBus();
});
afterEach(async () => {
  setProcessMetrics(undefined);
  for (const r of running.splice(0).reverse()) await r.stop();
  await bus.close();
  await db.drop();
});

/** A service answering CiService.GetStorageInfo, with a gauge counting its notes. */
async function start(metrics?: Metrics | false): Promise<RunningService<PrismaClient, object>> {
  const service = await startService({
    name: "test-service",
    databaseUrl: db.url,
    grpcAddress: "127.0.0.1:0",
    bus,
    log,
    migrations,
    PrismaClient,
    poolSize: 2,
    metrics,
    deps: () => ({}),
    handlers(server) {
      server.addService("quarry.ci.v1.CiService", { GetStorageInfo }, { GetStorageInfo: async () => ({ kind: "local" }) });
    },
    gauges(m, _deps, prisma) {
      m.scrapeGauge({ name: "test_notes", help: "Notes stored.", collect: () => prisma.note.count() });
    },
  });
  running.push(service);
  return service;
}

async function call(address: string): Promise<void> {
  const client = createClient(ciV1.CiService, address, { deadlineMs: 2000, metrics: createMetrics("caller", { defaultMetrics: false }) });
  await client.GetStorageInfo({});
  client.close();
}

const OK_CALLS = 'grpc_server_handled_total{grpc_service="quarry.ci.v1.CiService",grpc_method="GetStorageInfo",grpc_code="OK",service="test-service"}';

describe("a service's metrics", () => {
  it("are served on its own listener: gRPC calls by method and code, gauges read on scrape, process metrics", async () => {
    const metrics = createMetrics("test-service");
    const service = await start(metrics);
    const listener = await serveMetrics(metrics, { host: "127.0.0.1", port: 0, log });
    running.push({ stop: () => listener.close() });
    await call(service.address);
    await call(service.address);
    await service.prisma.note.create({ data: { body: "one" } });

    const res = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    expect(text).toContain(`${OK_CALLS} 2`);
    const buckets = text.split("\n").filter((l) => l.startsWith("grpc_server_handling_seconds_bucket{") && l.includes('grpc_method="GetStorageInfo"'));
    expect(buckets.find((l) => l.includes('le="+Inf"'))).toMatch(/grpc_code="OK".*\} 2$/);
    expect(text).toContain('test_notes{service="test-service"} 1');
    expect(text).toMatch(/nodejs_eventloop_lag_seconds\{service="test-service"\} /);

    expect((await fetch(`http://127.0.0.1:${listener.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${listener.port}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("are the process's by default (set by the process entry), and none with metrics: false", async () => {
    const forProcess = createMetrics("test-service", { defaultMetrics: false });
    setProcessMetrics(forProcess);
    await call((await start()).address);
    expect(await forProcess.text()).toContain(`${OK_CALLS} 1`);
    await call((await start(false)).address);
    expect(await forProcess.text()).toContain(`${OK_CALLS} 1`);
    expect(await forProcess.text()).toContain('test_notes{service="test-service"} 0');
  });

  it("are off without a process entry: the embedded mode opens no listener and counts nothing", async () => {
    expect(processMetrics()).toBeUndefined();
    await call((await start()).address);
    expect(processMetrics()).toBeUndefined();
  });
});

describe("startProcessMetrics", () => {
  it("is off with METRICS_PORT=0", async () => {
    expect(await startProcessMetrics("x-service", log, { METRICS_PORT: "0" })).toBeUndefined();
    expect(processMetrics()).toBeUndefined();
  });

  it("serves the process's registry on METRICS_PORT", async () => {
    const port = await freePort();
    const listener = await startProcessMetrics("x-service", log, { METRICS_PORT: String(port), METRICS_HOST: "127.0.0.1" });
    running.push({ stop: () => listener!.close() });
    expect(processMetrics()?.service).toBe("x-service");
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).toMatch(/process_cpu_user_seconds_total\{service="x-service"\} /);
  });

  it("leaves a service whose port is taken running without /metrics, and says so", async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as net.AddressInfo).port;
    const { log: recorded, records } = memoryLogger("x-service");
    try {
      expect(await startProcessMetrics("x-service", recorded, { METRICS_PORT: String(port), METRICS_HOST: "127.0.0.1" })).toBeUndefined();
      expect(processMetrics()).toBeUndefined();
      expect(records).toEqual([expect.objectContaining({ level: 50, port, msg: expect.stringContaining("metrics listener could not start") })]);
    } finally {
      blocker.close();
    }
  });
});

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
