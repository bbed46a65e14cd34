// GitLab's probes: /-/health (plain "GitLab OK"), /-/liveness and /-/readiness (one entry per
// gRPC service behind the gateway, asked over grpc.health.v1; 503 when one is down).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUARRY_REVISION, QUARRY_VERSION, startGateway, type RunningGateway } from "@quarry/gateway";
import { silentLogger } from "@quarry/logger";
import pg from "pg";
import { startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

const CHECKS = ["identity_check", "repo_check", "ci_check", "mirror_check", "hook_check", "collab_check", "error_tracking_check", "activity_check"];

describe("health endpoints", () => {
  it("answers /-/health with GitLab's plain text, without a token", async () => {
    const res = await fetch(`${s.url}/-/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(await res.text()).toBe("GitLab OK");
  });

  it("answers /-/liveness with {status: ok}", async () => {
    const res = await fetch(`${s.url}/-/liveness`);
    expect([res.status, res.headers.get("content-type"), await res.json()]).toEqual([200, "application/json", { status: "ok" }]);
  });

  it("answers /-/readiness with one ok entry per service while all serve", async () => {
    const res = await fetch(`${s.url}/-/readiness`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      status: "ok",
      master_check: [{ status: "ok" }],
      ...Object.fromEntries(CHECKS.map((c) => [c, [{ status: "ok" }]])),
    });
  });
});

describe("readiness with a service down", () => {
  // A second gateway in front of the same services, except that its hook service address has
  // nobody listening (the discard port): as a gateway sees a hook service that is down.
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({
      host: "127.0.0.1",
      port: 0,
      identityServiceAddress: s.addresses.identity,
      repoServiceAddress: s.addresses.repo,
      ciServiceAddress: s.addresses.ci,
      mirrorServiceAddress: s.addresses.mirror,
      collabServiceAddress: s.addresses.collab,
      errorTrackingServiceAddress: s.addresses.errorTracking,
      activityServiceAddress: s.addresses.activity,
      hookServiceAddress: "127.0.0.1:9",
      deadlineMs: 5_000,
      authCacheTtlMs: 1_000,
      maxBodyBytes: 1024 * 1024,
      log: silentLogger(),
      version: QUARRY_VERSION,
      revision: QUARRY_REVISION,
    });
  });
  afterAll(() => gateway?.stop());

  it("answers 503 and names the failing service; liveness and health stay up", async () => {
    const res = await fetch(`${gateway.url}/-/readiness`);
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("application/json");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      status: "failed",
      master_check: [{ status: "ok" }],
      ...Object.fromEntries(CHECKS.filter((c) => c !== "hook_check").map((c) => [c, [{ status: "ok" }]])),
      hook_check: [{ status: "failed", message: expect.any(String) }],
    });
    // Liveness and health do not depend on the services behind the gateway.
    expect((await fetch(`${gateway.url}/-/liveness`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/-/health`)).status).toBe(200);
  });
});

describe("readiness with a service's database unreachable", () => {
  /** Runs one statement on the test server's maintenance database. */
  async function admin(sql: string): Promise<void> {
    const url = new URL(s.options.serverUrl);
    url.pathname = "/postgres";
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  it("answers 503 with the service whose database refuses connections, 200 again once it accepts them", async () => {
    const database = `${s.options.prefix}_mirror`;
    // No new connections (superusers included), and the service's open ones are ended.
    await admin(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    try {
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
      const res = await fetch(`${s.url}/-/readiness`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.status).toBe("failed");
      expect(body.mirror_check).toEqual([{ status: "failed", message: "unexpected status: NOT_SERVING" }]);
      for (const c of CHECKS.filter((c) => c !== "mirror_check")) expect(body[c]).toEqual([{ status: "ok" }]);
    } finally {
      await admin(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    }
    const again = await fetch(`${s.url}/-/readiness`);
    expect(again.status).toBe(200);
  });
});
