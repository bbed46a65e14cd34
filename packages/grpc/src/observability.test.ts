// Request ids through gRPC into the services' log lines, and the call metrics, on real servers.
import * as grpc from "@grpc/grpc-js";
import { memoryLogger } from "@quarry/logger";
import { ciV1 } from "@quarry/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acceptRequestId,
  createClient,
  createGrpcServer,
  createMetrics,
  currentRequestId,
  type GrpcServer,
  type Metrics,
  notFound,
  sharedReading,
  withRequestId,
} from "./index.ts";

const { GetStorageInfo } = ciV1.CiService.service;
type Client = ReturnType<typeof createClient<{ GetStorageInfo: typeof GetStorageInfo }>>;

// front calls back while serving; back answers NOT_FOUND when asked for a missing kind.
const front = memoryLogger("front-service");
const back = memoryLogger("back-service");
const backMetrics = createMetrics("back-service", { defaultMetrics: false });
const frontMetrics = createMetrics("front-service", { defaultMetrics: false });
let frontServer: GrpcServer;
let backServer: GrpcServer;
let frontAddress: string;
let backClient: Client;
let backFails = false;

beforeAll(async () => {
  backServer = createGrpcServer(back.log, { metrics: backMetrics });
  backServer.addService(
    "quarry.ci.v1.CiService",
    { GetStorageInfo },
    {
      async GetStorageInfo(_req, ctx) {
        ctx.log.info("back handled");
        if (backFails) throw notFound("Storage");
        return { kind: "local" };
      },
    },
  );
  const backAddress = await backServer.listen("127.0.0.1:0");
  // The front's client counts into the front's registry (as a service's clients count into its process's).
  backClient = createClient(ciV1.CiService, backAddress, { deadlineMs: 2000, metrics: frontMetrics });
  frontServer = createGrpcServer(front.log);
  frontServer.addService(
    "quarry.ci.v1.CiService",
    { GetStorageInfo },
    {
      async GetStorageInfo(_req, ctx) {
        ctx.log.info("front handled");
        // No request id passed: the one of the call being served goes on by itself.
        await new Promise((r) => setTimeout(r, 5));
        return backClient.GetStorageInfo({});
      },
    },
  );
  frontAddress = await frontServer.listen("127.0.0.1:0");
});

afterAll(async () => {
  backClient.close();
  await frontServer.stop(100);
  await backServer.stop(100);
});

const lines = (records: Record<string, unknown>[], msg: string) => records.filter((r) => r.msg === msg);

describe("request ids", () => {
  it("reach the log lines of every service a call goes through", async () => {
    const client = createClient(ciV1.CiService, frontAddress, { deadlineMs: 2000 });
    await client.GetStorageInfo({}, { requestId: "abc-123-request" });
    client.close();
    expect(lines(front.records, "front handled").at(-1)).toMatchObject({
      request_id: "abc-123-request",
      rpc: "quarry.ci.v1.CiService/GetStorageInfo",
      service: "front-service",
    });
    expect(lines(back.records, "back handled").at(-1)).toMatchObject({
      request_id: "abc-123-request",
      rpc: "quarry.ci.v1.CiService/GetStorageInfo",
      service: "back-service",
    });
  });

  it("are taken from the current request when a call does not name one", async () => {
    const client = createClient(ciV1.CiService, frontAddress, { deadlineMs: 2000 });
    await withRequestId("outer-7", async () => {
      await new Promise((r) => setImmediate(r));
      expect(currentRequestId()).toBe("outer-7");
      await client.GetStorageInfo({});
    });
    client.close();
    expect(lines(back.records, "back handled").at(-1)).toMatchObject({ request_id: "outer-7" });
    expect(currentRequestId()).toBeUndefined();
  });

  it("are dropped when not sane (no forged log content), and absent when none came", async () => {
    const raw = new ciV1.CiService(frontAddress, grpc.credentials.createInsecure());
    const metadata = new grpc.Metadata();
    metadata.set("x-request-id", 'evil" id');
    await new Promise((resolve, reject) => raw.GetStorageInfo({}, metadata, (err: unknown) => (err ? reject(err) : resolve(undefined))));
    raw.close();
    const line = lines(front.records, "front handled").at(-1)!;
    expect(line).not.toHaveProperty("request_id");
    expect(lines(back.records, "back handled").at(-1)).not.toHaveProperty("request_id");
  });

  it("follow Rails' RequestId rule: word characters, - and @, at most 255", () => {
    expect(acceptRequestId("01HZX-abc_def@host")).toBe("01HZX-abc_def@host");
    expect(acceptRequestId("a".repeat(255))).toBe("a".repeat(255));
    expect(acceptRequestId("a".repeat(256))).toBeUndefined();
    expect(acceptRequestId("")).toBeUndefined();
    expect(acceptRequestId("line\nbreak")).toBeUndefined();
    expect(acceptRequestId("spa ce")).toBeUndefined();
    expect(acceptRequestId(undefined)).toBeUndefined();
  });
});

/** The value of one series in the Prometheus text, or undefined when absent. */
async function sample(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const text = await metrics.text();
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf("}"));
    if (Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

describe("call metrics", () => {
  it("count served and made calls by method and status code, with the service label", async () => {
    const method = { grpc_service: "quarry.ci.v1.CiService", grpc_method: "GetStorageInfo" };
    const okBefore = (await sample(backMetrics, "grpc_server_handled_total", { ...method, grpc_code: "OK" })) ?? 0;
    backFails = true;
    await expect(backClient.GetStorageInfo({})).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    backFails = false;
    await backClient.GetStorageInfo({});

    expect(await sample(backMetrics, "grpc_server_handled_total", { ...method, grpc_code: "OK", service: "back-service" })).toBe(okBefore + 1);
    expect(await sample(backMetrics, "grpc_server_handled_total", { ...method, grpc_code: "NOT_FOUND" })).toBe(1);
    expect(await sample(backMetrics, "grpc_server_handling_seconds_count", { ...method, grpc_code: "NOT_FOUND" })).toBe(1);
    expect(await sample(frontMetrics, "grpc_client_handled_total", { ...method, grpc_code: "NOT_FOUND", service: "front-service" })).toBe(1);
    expect(await sample(frontMetrics, "grpc_client_handling_seconds_bucket", { ...method, grpc_code: "NOT_FOUND", le: "+Inf" })).toBe(1);
    // The health service's own calls are not counted, and the JSON form carries the same series.
    expect(await backMetrics.text()).not.toContain("grpc.health");
    const json = await backMetrics.json();
    expect(json.find((m) => m.name === "grpc_server_handled_total")?.values).toEqual(
      expect.arrayContaining([expect.objectContaining({ value: 1, labels: expect.objectContaining({ grpc_code: "NOT_FOUND", service: "back-service" }) })]),
    );
  });

  it("count an unreachable peer's calls as UNAVAILABLE", async () => {
    const metrics = createMetrics("lonely", { defaultMetrics: false });
    const client = createClient(ciV1.CiService, "127.0.0.1:1", { deadlineMs: 1000, metrics });
    await expect(client.GetStorageInfo({})).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    client.close();
    expect(await sample(metrics, "grpc_client_handled_total", { grpc_method: "GetStorageInfo", grpc_code: "UNAVAILABLE" })).toBe(1);
  });
});

describe("scrape-time gauges", () => {
  it("read on every scrape; a failed reading keeps the last one and is counted", async () => {
    const metrics = createMetrics("gauges", { defaultMetrics: false });
    let depth: number | Error = 3;
    metrics.scrapeGauge({
      name: "test_queue_depth",
      help: "depth",
      collect: () => {
        if (depth instanceof Error) throw depth;
        return depth;
      },
    });
    expect(await metrics.text()).toContain('test_queue_depth{service="gauges"} 3');
    depth = 5;
    expect(await metrics.text()).toContain('test_queue_depth{service="gauges"} 5');
    depth = new Error("database down");
    expect(await metrics.text()).toContain('test_queue_depth{service="gauges"} 5');
    // The failure counter may be written before the gauge is read: the next scrape shows it.
    const text = await metrics.text();
    expect(text).toContain('test_queue_depth{service="gauges"} 5');
    expect(text).toMatch(/quarry_metrics_collect_failures_total\{metric="test_queue_depth",service="gauges"\} [12]\n/);
  });

  it("drop label sets that went away", async () => {
    const metrics = createMetrics("gauges", { defaultMetrics: false });
    let reading = [
      { labels: { queue: "a" }, value: 1 },
      { labels: { queue: "b" }, value: 2 },
    ];
    metrics.scrapeGauge({ name: "test_depths", help: "depths", labelNames: ["queue"], collect: () => reading });
    expect(await metrics.text()).toContain('test_depths{queue="b",service="gauges"} 2');
    reading = [{ labels: { queue: "a" }, value: 4 }];
    const text = await metrics.text();
    expect(text).toContain('test_depths{queue="a",service="gauges"} 4');
    expect(text).not.toContain('queue="b"');
  });

  it("share one reading between the gauges of one query", async () => {
    let reads = 0;
    const read = sharedReading(async () => ++reads);
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    expect(await read()).toBe(1);
    const failing = sharedReading(async () => {
      reads++;
      throw new Error("nope");
    });
    await expect(failing()).rejects.toThrow("nope");
    await expect(failing()).rejects.toThrow("nope");
    expect(reads).toBe(3); // a failure is not kept
  });
});
