// The token-revocation consumer of a gateway lives as long as the gateway: none is left on the
// NATS server after stop() (each start used to leave a durable consumer behind for good).
import { randomUUID } from "node:crypto";
import { NatsJetStreamBus, Subjects, type EventBus } from "@quarry/bus";
import { silentLogger } from "@quarry/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway } from "./server.ts";

const NATS_URL = process.env.NATS_URL;

describe.skipIf(!NATS_URL)("gateway on NATS JetStream", () => {
  let bus: NatsJetStreamBus;
  // A private stream holding only the revocation subject (the shared `quarry.>` stream would
  // overlap the private streams of other packages' NATS tests on the same server), removed after.
  const stream = `T_gw_${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    bus = await NatsJetStreamBus.connect({ servers: NATS_URL!, stream, subjects: [Subjects.tokenRevoke], name: "gateway-consumer-test", log: silentLogger() });
  });
  afterAll(async () => {
    await bus?.deleteStream();
    await bus?.close();
  });

  it("evicts revoked tokens through its own consumer and deletes that consumer on stop", async () => {
    const durables: string[] = [];
    // The real bus, noting the consumer name the gateway picks.
    const spy: EventBus = {
      publish: (s, d, o) => bus.publish(s, d, o),
      subscribe: (s, h, o) => {
        durables.push(o.durable);
        return bus.subscribe(s, h, o);
      },
      close: async () => {},
    };
    const gateway = await startGateway({
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
      authCacheTtlMs: 60_000,
      maxBodyBytes: 1024,
      bus: spy,
      log: silentLogger(),
      version: "18.5.0",
      revision: "test",
    });
    expect(durables).toHaveLength(1);
    const name = durables[0]!;
    try {
      expect(await bus.consumerNames()).toContain(name);
      const principal = { userId: 5, username: "u", name: "U", email: "", isAdmin: false, tokenId: 424242, scopes: ["api"] };
      gateway.deps.tokenCache.set("digest", principal);
      await bus.publish(Subjects.tokenRevoke, { event_id: "e1", event_name: "token_revoke", token_id: 424242 });
      const deadline = Date.now() + 10_000;
      while (gateway.deps.tokenCache.get("digest") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(gateway.deps.tokenCache.get("digest")).toBeUndefined();
    } finally {
      await gateway.stop();
    }
    expect(await bus.consumerNames()).not.toContain(name);
  });
});
