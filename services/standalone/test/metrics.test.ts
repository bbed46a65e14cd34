// The embedded mode's GET /metrics: one process runs every service, and none of them opens a
// /metrics listener of its own, so the gateway shows all their registries, each under its
// service label, with or without the worker threads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

async function scrape(s: TestStack): Promise<string> {
  const res = await fetch(`${s.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return res.text();
}

/** The value of one sample line (`name{labels} value`) whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

for (const threads of [false, true]) {
  describe(`GET /metrics of the embedded mode (${threads ? "gateway and repo-service on threads" : "one thread"})`, () => {
    let s: TestStack;
    beforeAll(async () => {
      s = await startTestStack(undefined, { threads });
    });
    afterAll(() => s?.destroy());

    it("shows every service's registry by its service label: gRPC calls served, queue depths, the cat-file pool", async () => {
      // A project read goes through identity-service and repo-service.
      const created = await s.api("/projects", { method: "POST", json: { name: `metrics-${threads}`, initialize_with_readme: true } });
      expect(created.status).toBe(201);
      const project = (await created.json()) as { id: number };
      expect((await s.api(`/projects/${project.id}/repository/tree`)).status).toBe(200);
      expect((await s.api(`/projects/${project.id}/issues`)).status).toBe(200);

      const text = await scrape(s);
      // One family per metric name, whichever registries have it.
      expect(text.match(/^# TYPE grpc_server_handled_total counter$/gm)).toHaveLength(1);
      expect(sample(text, "http_requests_total", { service: "gateway", route: "/api/v4/projects/:id/repository/tree", status: "200" })).toBeGreaterThanOrEqual(
        1,
      );
      expect(sample(text, "grpc_server_handled_total", { service: "identity-service", grpc_code: "OK" })).toBeGreaterThanOrEqual(1);
      expect(sample(text, "grpc_server_handled_total", { service: "repo-service", grpc_code: "OK" })).toBeGreaterThanOrEqual(1);
      expect(sample(text, "quarry_ci_jobs_pending", { service: "ci-service" })).toBe(0);
      expect(sample(text, "quarry_hook_deliveries_pending", { service: "hook-service" })).toBeGreaterThanOrEqual(0);
      expect(sample(text, "quarry_mirrors_scheduled", { service: "mirror-service" })).toBe(0);
      expect(sample(text, "quarry_repo_catfile_processes_max", { service: "repo-service" })).toBeGreaterThan(0);
      expect(sample(text, "grpc_server_handled_total", { service: "collab-service", grpc_code: "OK" })).toBeGreaterThanOrEqual(1);
      // The main thread's own event loop, beside the threads'.
      expect(sample(text, "nodejs_eventloop_lag_seconds", { service: "standalone" })).toBeGreaterThanOrEqual(0);
      if (threads) expect(sample(text, "nodejs_eventloop_lag_seconds", { service: "repo-service" })).toBeGreaterThanOrEqual(0);
    });
  });
}
