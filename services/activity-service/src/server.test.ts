import { waitFor } from "@quarry/testing";
import * as grpc from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "./test-fixture.ts";

describe("activity-service", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("server");
  });
  afterAll(() => f?.stop());

  it("serves health with its database", async () => {
    const Health = grpc.makeGenericClientConstructor(healthService, "Health");
    const health = new Health(f.svc.address, grpc.credentials.createInsecure());
    const res = await new Promise<{ status: string }>((resolve, reject) =>
      health.check!({ service: "" }, (err: Error | null, r: { status: string }) => (err ? reject(err) : resolve(r))),
    );
    health.close();
    expect(res.status).toBe("SERVING");
  });

  it("records the domain events it consumes durably, once", async () => {
    const event = { event_id: "srv-1", event_name: "group_create", group_id: 3, full_path: "g", actor: { user_id: 0, ip_address: "192.0.2.1" } };
    await f.bus.publish("quarry.test_server.identity.group_create", event);
    await f.bus.publish("quarry.test_server.identity.group_create", event);
    await waitFor(async () => (await f.client.ListAuditEvents({})).events.length === 1);
    const { events } = await f.client.ListAuditEvents({});
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ entityType: "Group", entityId: 3, eventName: "group_created", authorId: 0 });
    expect(JSON.parse(events[0]!.detailsJson)).toMatchObject({ ip_address: "192.0.2.1", entity_path: "g" });
  });
});
