import * as grpc from "@grpc/grpc-js";
import { Router } from "express";
import { service as healthService } from "grpc-health-check";
import type { GatewayDeps } from "../deps.ts";

/** How long one service's health answer may take before it counts as down. */
const CHECK_DEADLINE_MS = 2_000;

type HealthClient = grpc.Client & {
  check(request: { service: string }, options: grpc.CallOptions, callback: (err: grpc.ServiceError | null, res?: { status: string | number }) => void): void;
};
const HealthClientCtor = grpc.makeGenericClientConstructor(healthService as grpc.ServiceDefinition, "Health");

interface CheckResult {
  status: "ok" | "failed";
  message?: string;
}

/**
 * Asks a service's standard grpc.health.v1 service (on the channel the gateway already holds to
 * it) whether it serves; the whole-server entry ("") is what a service's lifecycle sets.
 */
function checkService(client: HealthClient): Promise<CheckResult> {
  return new Promise((resolve) => {
    client.check({ service: "" }, { deadline: Date.now() + CHECK_DEADLINE_MS }, (err, res) => {
      if (err) resolve({ status: "failed", message: err.details || err.message });
      else if (res?.status === "SERVING" || res?.status === 1) resolve({ status: "ok" });
      else resolve({ status: "failed", message: `unexpected status: ${String(res?.status)}` });
    });
  });
}

/**
 * GitLab's probes, outside /api/v4 and without authentication: `/-/health` (the process answers),
 * `/-/liveness` (the gateway is alive; dependencies are not its liveness, so an outage behind it
 * does not get it restarted) and `/-/readiness` (one `<service>_check` entry per gRPC service
 * behind the gateway, 503 when any fails; a service reports NOT_SERVING while its database does not
 * answer, see packages/grpc server.ts addDependencyCheck).
 */
export function healthRouter(deps: GatewayDeps): Router {
  const router = Router();
  // Health clients on the gateway's own channels (never closed here: that would close those).
  const healthOf = (service: grpc.Client) =>
    new HealthClientCtor("unused", grpc.credentials.createInsecure(), { channelOverride: service.getChannel() }) as unknown as HealthClient;
  // Made on the first probe: an app may be built before (or without) its service clients.
  let services: Record<string, HealthClient> | undefined;
  const healthClients = () =>
    (services ??= {
      identity_check: healthOf(deps.identity.raw),
      repo_check: healthOf(deps.repo.raw),
      ci_check: healthOf(deps.ci.raw),
      mirror_check: healthOf(deps.mirror.raw),
      collab_check: healthOf(deps.collab.raw),
      hook_check: healthOf(deps.hook.raw),
      error_tracking_check: healthOf(deps.errorTracking.raw),
      activity_check: healthOf(deps.activity.raw),
    });

  router.get("/-/health", (_req, res) => {
    // GitLab's middleware answers `text/plain` without a charset; bytes keep express from adding one.
    res.setHeader("Content-Type", "text/plain");
    res.send(Buffer.from("GitLab OK"));
  });

  router.get("/-/liveness", (_req, res) => {
    res.json({ status: "ok" });
  });

  router.get("/-/readiness", async (_req, res) => {
    const clients = healthClients();
    const names = Object.keys(clients);
    const results = await Promise.all(names.map((n) => checkService(clients[n]!)));
    const body: Record<string, unknown> = { status: "ok", master_check: [{ status: "ok" }] };
    names.forEach((n, i) => {
      body[n] = [results[i]];
    });
    const ready = results.every((r) => r.status === "ok");
    if (!ready) body.status = "failed";
    res.status(ready ? 200 : 503).json(body);
  });
  return router;
}
