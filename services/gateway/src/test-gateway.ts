import { silentLogger } from "@quarry/logger";
import { type GatewayOptions, type RunningGateway, startGateway } from "./server.ts";

/**
 * A gateway for tests whose services do not exist (every address is 127.0.0.1:1: calls fail fast
 * with 503); `overrides` change what a test needs (a bus, a TTL).
 */
export function startGatewayWithoutServices(overrides: Partial<GatewayOptions> = {}): Promise<RunningGateway> {
  return startGateway({
    host: "127.0.0.1",
    port: 0,
    identityServiceAddress: "127.0.0.1:1",
    repoServiceAddress: "127.0.0.1:1",
    ciServiceAddress: "127.0.0.1:1",
    hookServiceAddress: "127.0.0.1:1",
    mirrorServiceAddress: "127.0.0.1:1",
    collabServiceAddress: "127.0.0.1:1",
    errorTrackingServiceAddress: "127.0.0.1:1",
    activityServiceAddress: "127.0.0.1:1",
    deadlineMs: 2000,
    authCacheTtlMs: 1000,
    maxBodyBytes: 1024,
    log: silentLogger(),
    version: "18.5.0",
    revision: "test",
    ...overrides,
  });
}
