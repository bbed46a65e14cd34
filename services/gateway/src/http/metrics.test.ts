// The gateway's /metrics (route-template counters, who may read it) and request ids (kept or
// generated, answered, logged), on a real gateway whose services are unreachable.
import { memoryLogger } from "@quarry/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayOptions, type RunningGateway } from "../server.ts";
import { DEFAULT_METRICS_CIDRS, parseAllowList } from "./metrics.ts";

const nowhere = "127.0.0.1:1";
const options = (extra: Partial<GatewayOptions>): GatewayOptions => ({
  host: "127.0.0.1",
  port: 0,
  identityServiceAddress: nowhere,
  repoServiceAddress: nowhere,
  ciServiceAddress: nowhere,
  hookServiceAddress: nowhere,
  mirrorServiceAddress: nowhere,
  collabServiceAddress: nowhere,
  errorTrackingServiceAddress: nowhere,
  activityServiceAddress: nowhere,
  deadlineMs: 1000,
  authCacheTtlMs: 1000,
  maxBodyBytes: 1024,
  log: memoryLogger("gateway", "silent").log,
  version: "18.5.0",
  revision: "test",
  ...extra,
});

const recorded = memoryLogger("gateway", "debug");
let gateway: RunningGateway;
let closed: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(options({ log: recorded.log }));
  // Only TEST-NET-3 may read this one's metrics: the test's loopback is refused.
  closed = await startGateway(options({ metricsAllowedCidrs: "203.0.113.0/24" }));
});
afterAll(async () => {
  await gateway.stop();
  await closed.stop();
});

/** Series lines of `name` whose labels include all of `labels`. */
function series(text: string, name: string, labels: Record<string, string>): string[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith(`${name}{`))
    .filter((l) => Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
}
const value = (line: string | undefined) => Number(line?.slice(line.lastIndexOf(" ") + 1));

describe("GET /metrics", () => {
  it("counts requests by route template, method and status, and the gateway's gRPC calls by method and code", async () => {
    for (const id of [5, 6, 7]) await fetch(`${gateway.url}/api/v4/projects/${id}/repository/branches`);
    await fetch(`${gateway.url}/api/v4/no/such/route`);
    await fetch(`${gateway.url}/-/liveness`);

    const res = await fetch(`${gateway.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    // identity-service is unreachable: 503, counted under the template, never the raw path.
    const branches = series(text, "http_requests_total", {
      method: "GET",
      route: "/api/v4/projects/:id/repository/branches",
      status: "503",
      service: "gateway",
    });
    expect(branches).toHaveLength(1);
    expect(value(branches[0])).toBe(3);
    expect(text).not.toContain("/api/v4/projects/5");
    expect(value(series(text, "http_request_duration_seconds_count", { route: "/api/v4/projects/:id/repository/branches", status: "503" })[0])).toBe(3);
    expect(value(series(text, "http_requests_total", { route: "/api/v4/*", status: "404" })[0])).toBe(1);
    expect(value(series(text, "http_requests_total", { route: "/-/liveness", status: "200" })[0])).toBe(1);
    expect(
      series(text, "grpc_client_handled_total", { grpc_service: "quarry.identity.v1.IdentityService", grpc_code: "UNAVAILABLE", service: "gateway" }).length,
    ).toBeGreaterThan(0);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{service="gateway"\} /m);
  });

  it("answers 404 to addresses outside the allowed ranges, as if there were nothing there", async () => {
    const res = await fetch(`${closed.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "404 Not Found" });
    // A loopback proxy's X-Forwarded-For names the real client: a public one is refused.
    const proxied = await fetch(`${gateway.url}/metrics`, { headers: { "X-Forwarded-For": "8.8.8.8" } });
    expect(proxied.status).toBe(404);
    const local = await fetch(`${gateway.url}/metrics`, { headers: { "X-Forwarded-For": "10.1.2.3" } });
    expect(local.status).toBe(200);
  });
});

describe("the metrics allow-list", () => {
  it("takes loopback and the private ranges by default", () => {
    const list = parseAllowList(DEFAULT_METRICS_CIDRS);
    for (const a of [
      "127.0.0.1",
      "127.9.9.9",
      "::1",
      "::ffff:127.0.0.1",
      "10.0.0.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "fd12:3456::1",
      "::ffff:10.1.2.3",
    ])
      expect(list.allows(a), a).toBe(true);
    for (const a of ["8.8.8.8", "172.32.0.1", "172.15.255.255", "192.169.0.1", "2001:db8::1", "::ffff:8.8.8.8", "not-an-ip", "", undefined])
      expect(list.allows(a), String(a)).toBe(false);
  });

  it("reads comma-separated CIDRs and bare addresses", () => {
    const list = parseAllowList(" 203.0.113.0/24, 2001:db8::/32 ,198.51.100.7,");
    for (const a of ["203.0.113.9", "2001:db8:1::5", "198.51.100.7"]) expect(list.allows(a), a).toBe(true);
    for (const a of ["198.51.100.8", "127.0.0.1", "::1", "2001:db9::1"]) expect(list.allows(a), a).toBe(false);
    expect(parseAllowList("").allows("127.0.0.1")).toBe(false);
  });

  it("refuses a malformed entry instead of guessing", () => {
    for (const bad of ["10.0.0.0/33", "::1/129", "nope", "10.0.0.0/8/1", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.256/8"])
      expect(() => parseAllowList(bad), bad).toThrow(/not an address or CIDR/);
  });
});

describe("request ids", () => {
  it("keeps a sane incoming X-Request-Id, answers it, and logs the request with it", async () => {
    const res = await fetch(`${gateway.url}/api/v4/projects/9/repository/branches`, { headers: { "X-Request-Id": "abc-123-def" } });
    expect(res.status).toBe(503);
    expect(res.headers.get("x-request-id")).toBe("abc-123-def");
    // A 5xx request line is written at info (others at debug), with the route template.
    expect(recorded.records.filter((r) => r.msg === "request" && r.request_id === "abc-123-def")).toEqual([
      expect.objectContaining({
        level: 30,
        method: "GET",
        path: "/api/v4/projects/9/repository/branches",
        route: "/api/v4/projects/:id/repository/branches",
        status: 503,
      }),
    ]);
  });

  it("generates one when none came, or when the incoming one is not sane", async () => {
    const none = await fetch(`${gateway.url}/-/liveness`);
    const generated = none.headers.get("x-request-id");
    expect(generated).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(recorded.records.filter((r) => r.msg === "request" && r.request_id === generated)).toEqual([
      expect.objectContaining({ level: 20, route: "/-/liveness", status: 200 }),
    ]);

    for (const insane of ["has spaces", 'quote"d', "x".repeat(256)]) {
      const res = await fetch(`${gateway.url}/-/liveness`, { headers: { "X-Request-Id": insane } });
      const answered = res.headers.get("x-request-id");
      expect(answered).not.toBe(insane);
      expect(answered).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
