// The token-revocation, access-change and application-settings consumers of a gateway live as long as the
// gateway: none is left on the NATS server after stop() (each start used to leave a durable
// consumer behind for good).
import { randomUUID } from "node:crypto";
import { NatsJetStreamBus, Subjects, type EventBus } from "@quarry/bus";
import { silentLogger } from "@quarry/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGatewayWithoutServices } from "./test-gateway.ts";

const NATS_URL = process.env.NATS_URL;

describe.skipIf(!NATS_URL)("gateway on NATS JetStream", () => {
  let bus: NatsJetStreamBus;
  // A private stream holding only the gateway's subjects (the shared `quarry.>` stream would
  // overlap the private streams of other packages' NATS tests on the same server), removed after.
  const stream = `T_gw_${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    bus = await NatsJetStreamBus.connect({
      servers: NATS_URL!,
      stream,
      subjects: [Subjects.tokenRevoke, Subjects.applicationSettings, Subjects.accessChanged],
      name: "gateway-consumer-test",
      log: silentLogger(),
    });
  });
  afterAll(async () => {
    await bus?.deleteStream();
    await bus?.close();
  });

  it("evicts revoked tokens and changed access, and follows settings through its own consumers and deletes them on stop", async () => {
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
    const gateway = await startGatewayWithoutServices({ authCacheTtlMs: 60_000, bus: spy });
    expect(durables).toHaveLength(3);
    try {
      expect(await bus.consumerNames()).toEqual(expect.arrayContaining(durables));
      const principal = { userId: 5, username: "u", name: "U", email: "", isAdmin: false, tokenId: 424242, scopes: ["api"] };
      gateway.deps.tokenCache.set("digest", principal);
      await bus.publish(Subjects.tokenRevoke, { event_id: "e1", event_name: "token_revoke", token_id: 424242 });
      const deadline = Date.now() + 10_000;
      while (gateway.deps.tokenCache.get("digest") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(gateway.deps.tokenCache.get("digest")).toBeUndefined();
      // An access change evicts the project's authorization answers.
      const project = { id: 77, pathWithNamespace: "g/p", namespace: { kind: "group", ownerId: 0 } } as never;
      gateway.deps.authCache.set("answer", { project, accessLevel: 30 }, gateway.deps.authCache.generation, 5, "77");
      await bus.publish(Subjects.accessChanged, { event_id: "e3", event_name: "access_changed", project_ids: [77] });
      while (gateway.deps.authCache.get("answer") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(gateway.deps.authCache.get("answer")).toBeUndefined();
      // A settings change reaches this gateway's copy (identity-service is unreachable here).
      await bus.publish(Subjects.applicationSettings, { event_id: "e2", settings: { max_attachment_size: 3 }, revision: 1 });
      while (gateway.deps.settings.current.max_attachment_size !== 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(gateway.deps.settings.current.max_attachment_size).toBe(3);
    } finally {
      await gateway.stop();
    }
    const left = await bus.consumerNames();
    for (const name of durables) expect(left).not.toContain(name);
  });
});
