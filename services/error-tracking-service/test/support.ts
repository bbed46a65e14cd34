// Shared set-up for error-tracking-service tests: the service on its own fresh database, a gRPC client.
import { InProcessBus } from "@quarry/bus";
import { createClient, ERROR_BODY_KEY, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { errorTrackingV1, type ErrorTrackingServiceDefinition } from "@quarry/proto";
import { createTestDatabase } from "@quarry/testing";
import { startErrorTrackingService, type RunningErrorTrackingService } from "../src/server.ts";

export interface ErrorTrackingTestContext {
  svc: RunningErrorTrackingService;
  client: PromiseClient<ErrorTrackingServiceDefinition>;
  close(): Promise<void>;
}

export async function setUp(prefix: string): Promise<ErrorTrackingTestContext> {
  const log = silentLogger();
  const db = await createTestDatabase(`${prefix}_error_tracking`);
  const svc = await startErrorTrackingService({ databaseUrl: db.url, grpcAddress: "127.0.0.1:0", bus: new InProcessBus({ log }), log });
  const client = createClient(errorTrackingV1.ErrorTrackingService, svc.address, { deadlineMs: 10_000 });
  return {
    svc,
    client,
    async close() {
      client.close();
      await svc.stop();
      await db.drop();
    },
  };
}

/** The gRPC error a call failed with, its code and GitLab body. */
export async function failure(p: Promise<unknown>): Promise<{ code: number; body: unknown }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code: number; metadata: { get(k: string): unknown[] } };
    return { code: err.code, body: JSON.parse(String(err.metadata.get(ERROR_BODY_KEY)[0])) };
  }
  throw new Error("the call succeeded");
}
