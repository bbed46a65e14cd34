import * as grpc from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type ErrorTrackingTestContext } from "../test/support.ts";

let t: ErrorTrackingTestContext;
beforeAll(async () => {
  t = await setUp("et_server");
});
afterAll(() => t?.close());

async function healthStatus(address: string, service: string): Promise<string | number> {
  const Health = grpc.makeGenericClientConstructor(healthService as grpc.ServiceDefinition, "Health");
  const h = new Health(address, grpc.credentials.createInsecure()) as unknown as {
    check(req: { service: string }, cb: (err: Error | null, res: { status: string | number }) => void): void;
    close(): void;
  };
  try {
    return await new Promise((resolve, reject) => h.check({ service }, (err, r) => (err ? reject(err) : resolve(r.status))));
  } finally {
    h.close();
  }
}

describe("error-tracking-service over gRPC", () => {
  it("listens on a picked port after migrating, serves ErrorTrackingService and the health service", async () => {
    expect(t.svc.address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
    expect([1, "SERVING"]).toContain(await healthStatus(t.svc.address, "quarry.errortracking.v1.ErrorTrackingService"));
    expect(await t.client.ListErrors({ projectId: 1 })).toEqual({ errors: [], total: 0 });
  });
});
